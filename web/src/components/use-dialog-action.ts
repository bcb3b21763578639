import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';

/** What a dialog checks before it sends: the value to send, or the text that says what is wrong. */
export type Checked<V> = { ok: true; value: V } | { ok: false; error: string };

/**
 * A dialog's action: the request, what follows its success, and the text shown in the dialog
 * (the server's refusal, or a check of the dialog's own). `submit(check)` is the form's handler:
 * it sends the value `check` gives, or shows its text; nothing while the request runs. Without
 * `check` the action sends nothing but itself (a confirmation).
 */
export function useDialogAction<V, A>(send: (value: V) => Promise<A>, done: (answer: A) => void) {
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: send,
    onMutate: () => setError(null),
    onSuccess: done,
    onError: (failure) => setError(failure.message),
  });
  const submit = (check?: () => Checked<V>) => (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    // A confirmation's V is void: it sends no value.
    const checked = check ? check() : { ok: true as const, value: undefined as V };
    if (checked.ok) mutation.mutate(checked.value);
    else setError(checked.error);
  };
  return { mutation, error, submit };
}
