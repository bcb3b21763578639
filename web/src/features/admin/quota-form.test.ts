import { shownErrorText } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { parseQuotaDefaults, parseUserQuotas, quotaFields } from './quota-form';

describe('the quota dialog fields', () => {
  it('takes decimal GB with a comma or a point, and empty fields as the default', () => {
    expect(parseUserQuotas({ storageGb: '0,5', queuedPreviews: '', queuedHd: '7' })).toEqual({
      ok: true,
      value: { storageBytes: 500_000_000, queuedPreviews: null, queuedHd: 7 },
    });
    expect(parseUserQuotas({ storageGb: '1.25', queuedPreviews: '3', queuedHd: '' })).toMatchObject(
      {
        value: { storageBytes: 1_250_000_000 },
      },
    );
  });

  it('shows stored bytes back as the same GB, exactly', () => {
    const fields = quotaFields({ storageBytes: 1_000, queuedPreviews: null, queuedHd: 4 });
    expect(fields).toEqual({ storageGb: '0,000001', queuedPreviews: '', queuedHd: '4' });
    expect(parseUserQuotas(fields)).toEqual({
      ok: true,
      value: { storageBytes: 1_000, queuedPreviews: null, queuedHd: 4 },
    });
  });

  it("refuses what is not a size or a whole number with the contract's text", () => {
    const invalid = { ok: false, error: shownErrorText('es', 'QUOTA_INVALID') };
    expect(parseUserQuotas({ storageGb: 'mucho', queuedPreviews: '', queuedHd: '' })).toEqual(
      invalid,
    );
    expect(parseUserQuotas({ storageGb: '', queuedPreviews: '2,5', queuedHd: '' })).toEqual(
      invalid,
    );
    // The defaults' queues have no default of their own to fall back on.
    expect(parseQuotaDefaults({ storageGb: '', queuedPreviews: '', queuedHd: '5' })).toEqual(
      invalid,
    );
    expect(parseQuotaDefaults({ storageGb: '', queuedPreviews: '20', queuedHd: '50' })).toEqual({
      ok: true,
      value: { storageBytes: null, queuedPreviews: 20, queuedHd: 50 },
    });
  });
});
