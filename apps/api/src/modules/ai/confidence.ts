/**
 * Turns retrieval scores into a calibrated confidence: the estimated probability that the best article really
 * answers the question. A linear score of three signals (how well the best article matches, how far ahead of the
 * runner-up it is, and how much of the question the knowledge base has words for) goes through a monotone
 * piecewise-linear map fitted by isotonic regression. Both were fitted on the validation split of CLINC150 (never on
 * its test split) by `npm run bench:ai -- --calibrate`, which prints these constants; see
 * docs/decisions/2026-11-23-ai-retrieval-and-confidence.md.
 */
export interface ConfidenceSignals {
  /** Similarity of the article's best-matching title, phrasing or sentence to the question (0..1). */
  best: number;
  /** The article's score (0..1). */
  top: number;
  /** The best score of any other article (0 when there is none). */
  second: number;
  /** Share of the question's weight made of words the knowledge base uses (0..1). */
  coverage: number;
  /**
   * How many words of the question say what it is about. A question of one or two ("item", "refund?") names a topic
   * rather than asking something, so even a perfect match with a title is not a near-certain answer.
   */
  words: number;
  /**
   * Whether the scores include the sentence encoder's similarity. They are distributed differently with it, so each
   * way has its own calibration.
   */
  sentences?: boolean;
  /** The encoder whose similarity the scores include, when they do: an embeddings model may have its own calibration. */
  encoder?: string | null;
}

/**
 * The signals of an article found for a question: its absolute match (retrieval.ts, Hit.absolute: the encoder's
 * plain cosine, not the centred one that ranks articles) and that of the best other article.
 */
export function signalsOf(
  query: { coverage: number; words: number; sentence?: Float32Array | null; encoder?: string | null },
  hit: { absolute: { best: number; score: number; rival: number }; pending?: boolean } | undefined,
): ConfidenceSignals {
  return {
    best: hit?.absolute.best ?? 0,
    top: hit?.absolute.score ?? 0,
    second: hit?.absolute.rival ?? 0,
    coverage: query.coverage,
    words: query.words,
    // An article still being encoded was scored from its words: the words' calibration reads it.
    sentences: Boolean(query.sentence) && !hit?.pending,
    encoder: query.encoder ?? null,
  };
}

export interface Calibration {
  weights: { best: number; margin: number; coverage: number };
  bias: number;
  /** [linear score, probability] pairs, increasing in both. */
  knots: [number, number][];
  /**
   * The highest confidence a question of 0-1 and of 2 content words can have: how often such questions were answered
   * right on val when the knots said 0.9 or more. A question that names a topic ("item", "refund?") matches a title
   * as well as a full question does, but is right less often.
   */
  shortCaps: [number, number];
}

export const CALIBRATION: Calibration = {
  weights: { best: 5.755, margin: 5.275, coverage: 0.701 },
  bias: -2.833,
  knots: [
    [-2.83, 0.01],
    [-2.03, 0.046],
    [-1.78, 0.057],
    [-1.57, 0.081],
    [-1.35, 0.109],
    [-1.02, 0.194],
    [-0.69, 0.271],
    [-0.02, 0.575],
    [0.69, 0.726],
    [1.33, 0.833],
    [2.01, 0.906],
    [2.77, 0.963],
    [3.81, 0.99],
    [5.09, 0.99],
    [7.89, 0.99],
  ],
  shortCaps: [0.94, 0.96],
};

export function linearScore(s: ConfidenceSignals, c: Calibration = CALIBRATION): number {
  return c.weights.best * s.best + c.weights.margin * (s.top - s.second) + c.weights.coverage * s.coverage + c.bias;
}

/** Piecewise-linear interpolation through the knots, flat beyond the ends. */
export function interpolate(x: number, knots: [number, number][]): number {
  const first = knots[0];
  const last = knots[knots.length - 1];
  if (!first || !last) return 0;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i] as [number, number];
    const [x0, y0] = knots[i - 1] as [number, number];
    if (x <= x1) return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
  }
  return last[1];
}

/** The calibration fitted for scores with the sentence encoder's similarity (see CALIBRATION for the method). */
export const CALIBRATION_WITH_SENTENCES: Calibration = {
  weights: { best: 7.028, margin: 4.98, coverage: 0.276 },
  bias: -3.561,
  knots: [
    [-3.48, 0.01],
    [-2.25, 0.017],
    [-1.94, 0.03],
    [-1.66, 0.076],
    [-1.35, 0.109],
    [-0.97, 0.211],
    [-0.48, 0.377],
    [0.34, 0.612],
    [1.05, 0.775],
    [1.66, 0.867],
    [2.23, 0.95],
    [2.86, 0.967],
    [3.71, 0.99],
    [4.73, 0.99],
    [7.81, 0.99],
  ],
  shortCaps: [0.96, 0.97],
};

/** Calibrations fitted for an embeddings endpoint's model (`npm run ai:calibrate`), by encoder name. */
const encoderCalibrations = new Map<string, Calibration>();

/** Scores with this encoder's similarity are read with this calibration (encoder-calibration.ts loads it at start). */
export function useEncoderCalibration(encoder: string, calibration: Calibration | null): void {
  if (calibration) encoderCalibrations.set(encoder, calibration);
  else encoderCalibrations.delete(encoder);
}

/**
 * The calibration for the way a question was scored: words alone, the embedded encoder, or an embeddings model with
 * a calibration of its own (one not refitted yet is read with the embedded encoder's, the nearest there is).
 */
export function calibrationFor(s: ConfidenceSignals): Calibration {
  if (!s.sentences) return CALIBRATION;
  return (s.encoder ? encoderCalibrations.get(s.encoder) : undefined) ?? CALIBRATION_WITH_SENTENCES;
}

export function confidenceOf(s: ConfidenceSignals, c: Calibration = calibrationFor(s)): number {
  if (s.best <= 0) return 0;
  const cap = s.words <= 1 ? c.shortCaps[0] : s.words === 2 ? c.shortCaps[1] : 1;
  const p = Math.min(cap, interpolate(linearScore(s, c), c.knots));
  return Math.round(Math.min(1, Math.max(0, p)) * 1000) / 1000;
}
