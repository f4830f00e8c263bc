/**
 * Turns a lookup of many keys in one statement into a lookup of one key that callers can await, answering the
 * callers who ask while a statement is running together in the next one.
 *
 * The first caller's statement starts at once, so a request alone waits for nothing. Under load, the requests that
 * arrive while a statement is running share the next: fifty clients cost a few statements instead of fifty. Every
 * caller's answer comes from a statement that started after the caller asked, so nothing committed before a request
 * arrived is missed, as if it had sent a statement of its own.
 *
 * readMany answers, for each input, the output at the same index. When it fails, every caller of that statement gets
 * its error; the next statement is tried for the callers who came later.
 */
export function batched<I, O>(readMany: (inputs: I[]) => Promise<O[]>, maxBatch = 256): (input: I) => Promise<O> {
  interface Waiter {
    input: I;
    resolve(output: O): void;
    reject(error: unknown): void;
  }
  let waiting: Waiter[] = [];
  let running = false;

  const drain = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const outputs = await readMany(batch.map((w) => w.input));
        for (const [i, w] of batch.entries()) w.resolve(outputs[i] as O);
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    running = false;
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!running) void drain();
    });
}
