import { describe, expect, it } from "vitest";
import { batched } from "../../src/platform/batch.ts";

/** A lookup whose statements the test finishes by hand, recording what each was asked. */
function manualLookup() {
  const calls: { inputs: number[]; finish(error?: Error): void }[] = [];
  const readMany = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        inputs,
        finish: (error) => (error ? reject(error) : resolve(inputs.map((n) => `answer ${n}`))),
      });
    });
  return { calls, readMany };
}

describe("batched", () => {
  it("starts the first caller's statement at once and gives those who asked meanwhile one statement", async () => {
    const { calls, readMany } = manualLookup();
    const read = batched(readMany);
    const first = read(1);
    expect(calls.map((c) => c.inputs)).toEqual([[1]]);

    const later = [read(2), read(3), read(2)];
    expect(calls).toHaveLength(1);
    calls[0]?.finish();
    expect(await first).toBe("answer 1");
    await Promise.resolve();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 2]]);
    calls[1]?.finish();
    expect(await Promise.all(later)).toEqual(["answer 2", "answer 3", "answer 2"]);

    // Idle again: the next caller does not wait for anything.
    const alone = read(4);
    expect(calls.map((c) => c.inputs).at(-1)).toEqual([4]);
    calls[2]?.finish();
    expect(await alone).toBe("answer 4");
  });

  it("fails only the callers of the statement that failed", async () => {
    const { calls, readMany } = manualLookup();
    const read = batched(readMany);
    const first = read(1);
    const second = read(2);
    calls[0]?.finish(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await Promise.resolve();
    calls[1]?.finish();
    expect(await second).toBe("answer 2");
  });

  it("splits a long queue into statements of at most the batch size", async () => {
    const { calls, readMany } = manualLookup();
    const read = batched(readMany, 2);
    const answers = [1, 2, 3, 4, 5].map((n) => read(n));
    for (let i = 0; i < 3; i++) {
      await Promise.resolve();
      calls[i]?.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3], [4, 5]]);
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5].map((n) => `answer ${n}`));
  });

  it("answers a statement that throws before it starts with its error", async () => {
    const read = batched<number, string>(() => {
      throw new Error("bad input");
    });
    await expect(read(1)).rejects.toThrow("bad input");
  });
});
