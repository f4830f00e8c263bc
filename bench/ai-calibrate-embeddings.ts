/**
 * npm run ai:calibrate: refits the assistant's confidence calibration for the embeddings endpoint the environment
 * configures (AI_EMBEDDINGS_URL, AI_EMBEDDINGS_MODEL, AI_EMBEDDINGS_KEY), and writes it where the app reads it at
 * start (AI_EMBEDDINGS_CALIBRATION, by default embeddings-calibration.json in DATA_DIR; docs/deploy.md). The method
 * is the embedded encoder's (ai-calibrate.ts): CLINC150's val split only, knowledge bases with 0, 3, 10 and all
 * example questions pooled, every text encoded at the endpoint. A text the endpoint fails on stops the command: a
 * calibration fitted partly on words alone would not describe the model. Restart the app afterwards.
 *
 * --local: against the local server that speaks the protocol (apps/api/test/support/embeddings-server.ts), whose
 * "model" is a bag of hashed words: a check that the command runs, written to a file of its own in the system's
 * temporary directory, never where the app reads.
 */
import os from "node:os";
import path from "node:path";
import { confidenceOf } from "../apps/api/src/modules/ai/confidence.ts";
import { endpointDimensions, endpointUsable } from "../apps/api/src/modules/ai/embeddings-endpoint.ts";
import { writeEncoderCalibration } from "../apps/api/src/modules/ai/encoder-calibration.ts";
import { loadConfig } from "../apps/api/src/platform/config.ts";
import { startEmbeddingsServer } from "../apps/api/test/support/embeddings-server.ts";
import { fitCalibration, reliability, validationRows } from "./ai-calibrate.ts";
import { loadClinc } from "./ai-clinc.ts";

const log = (line = "") => console.log(line);

async function main(): Promise<number> {
  const local = process.argv.includes("--local") ? await startEmbeddingsServer() : null;
  if (local) {
    process.env.AI_EMBEDDINGS_URL = local.url;
    process.env.AI_EMBEDDINGS_MODEL = "local-hashed-words";
    process.env.AI_EMBEDDINGS_CALIBRATION = path.join(os.tmpdir(), "cove-local-embeddings-calibration.json");
  }
  try {
    const config = loadConfig();
    const endpoint = endpointUsable();
    if (!config.embeddings || !endpoint) {
      log(
        "Set AI_EMBEDDINGS_URL and AI_EMBEDDINGS_MODEL (and AI_EMBEDDINGS_KEY if it needs one) first: docs/deploy.md",
      );
      return 1;
    }
    const encoder = `embeddings:${endpoint.model}`;
    log(
      `Fitting the confidence calibration of ${endpoint.model} (${endpoint.url}) on CLINC150 val; test is not read...`,
    );
    const rows = await validationRows(loadClinc(), true);
    const read = rows.filter((r) => r.signals.sentences && r.signals.encoder === encoder).length;
    if (read < rows.length) {
      log(
        `The endpoint did not encode every text (${rows.length - read} of ${rows.length} questions read without it):`,
      );
      log("nothing was written. See the warnings above, then run the command again.");
      return 1;
    }
    const fitted = fitCalibration(rows);
    const file = config.embeddings.calibrationFile;
    writeEncoderCalibration(file, {
      encoder,
      dimensions: endpointDimensions(endpoint) ?? 0,
      fittedAt: new Date().toISOString(),
      questions: rows.length,
      calibration: fitted,
    });
    log(`Written to ${file}; the app reads it at its next start.`);
    log(`Reliability of the refit on val (${rows.length} questions):`);
    log(reliability(rows.map((r) => ({ p: confidenceOf(r.signals, fitted), correct: r.correct }))).join("\n"));
    log("Reliability of the embedded encoder's calibration on the same questions (what the app used until now):");
    log(
      reliability(rows.map((r) => ({ p: confidenceOf({ ...r.signals, encoder: null }), correct: r.correct }))).join(
        "\n",
      ),
    );
    return 0;
  } finally {
    await local?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
