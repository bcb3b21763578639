import { z } from 'zod';

// zod compiles fast parsers with `new Function` when it may; the server's Content-Security-Policy
// allows no eval, and even zod's guarded probe is reported as a violation. Interpreted parsing is
// fast enough for the messages a browser reads.
z.config({ jitless: true });
