/**
 * A stand-in for a port or repository that has only the methods a test gives it: any other call
 * throws "unexpected call: <name>.<method>", so a service that reaches for something the test did
 * not plan (writes a row, touches a file, queues a job) fails the test loudly instead of getting a
 * silent default. Give the methods as plain functions, or as `vi.fn(...)` to check their calls.
 */
export function strictFake<T extends object>(name: string, methods: NoInfer<Partial<T>> = {}): T {
  return new Proxy(methods, {
    get(target, property, receiver) {
      if (Reflect.has(target, property)) return Reflect.get(target, property, receiver) as unknown;
      // Not a method call: `await` probes `then`, and printers and matchers probe symbols.
      if (typeof property === 'symbol' || property === 'then') return undefined;
      return () => {
        throw new Error(`unexpected call: ${name}.${property}`);
      };
    },
  }) as T;
}
