/** Loading the sentence encoder's model, for its thread (encoder.worker.ts): apart, so it can be tested. */

export interface Model {
  embed(input: string[]): Promise<number[][]>;
}

/** What loading the model takes: the backend's readiness, and the model's loader and weights. */
export interface ModelParts {
  ready(): Promise<unknown>;
  initModel(source: unknown): Promise<Model>;
  modelSource: unknown;
}

/**
 * Loads the model once its backend is ready. initModel alone reads the weights while the WebAssembly backend is still
 * starting, and when the weights come first (a busy machine) the load fails with "Backend 'wasm' has not yet been
 * initialized": seen on 3 of 4 restarts of the built server beside a running test suite.
 */
export async function loadModel(parts: ModelParts): Promise<Model> {
  await parts.ready();
  return parts.initModel(parts.modelSource);
}

/** `load` run once and its model kept; a load that failed is not kept, so the next text tries again. */
export function keptOnceLoaded(load: () => Promise<Model>): () => Promise<Model> {
  let model: Promise<Model> | undefined;
  return () => {
    model ??= load().catch((err: unknown) => {
      model = undefined;
      throw err;
    });
    return model;
  };
}
