import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { type Calibration, useEncoderCalibration } from "./confidence.ts";
import { endpointEncoderName } from "./embeddings-endpoint.ts";

/**
 * The confidence calibration of an embeddings endpoint's model, fitted on CLINC150's val split by
 * `npm run ai:calibrate` (bench/ai-calibrate-embeddings.ts) and kept in a file (AI_EMBEDDINGS_CALIBRATION, by
 * default embeddings-calibration.json in DATA_DIR) that the app reads at start. It names the model it was fitted for:
 * another model's is not used.
 */
const calibrationFile = z.object({
  encoder: z.string().min(1),
  dimensions: z.number().int().positive(),
  fittedAt: z.string(),
  /** Val questions it was fitted on. */
  questions: z.number().int().nonnegative(),
  calibration: z.object({
    weights: z.object({ best: z.number(), margin: z.number(), coverage: z.number() }),
    bias: z.number(),
    knots: z.array(z.tuple([z.number(), z.number()])).min(2),
    shortCaps: z.tuple([z.number(), z.number()]),
  }),
});
export type EncoderCalibrationFile = z.infer<typeof calibrationFile>;

/**
 * Reads the model's calibration, and scores with its similarity use it from then on. Says why not otherwise (no file
 * yet, another model's, unreadable): the embedded encoder's calibration is used meanwhile.
 */
export function loadEncoderCalibration(
  file: string,
  model: string,
): "loaded" | "missing" | "other-model" | "unreadable" {
  const encoder = endpointEncoderName({ model });
  useEncoderCalibration(encoder, null);
  if (!existsSync(file)) return "missing";
  let parsed: EncoderCalibrationFile;
  try {
    parsed = calibrationFile.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return "unreadable";
  }
  if (parsed.encoder !== encoder) return "other-model";
  useEncoderCalibration(encoder, parsed.calibration satisfies Calibration);
  return "loaded";
}

export function writeEncoderCalibration(file: string, content: EncoderCalibrationFile): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(calibrationFile.parse(content), null, 2)}\n`);
}
