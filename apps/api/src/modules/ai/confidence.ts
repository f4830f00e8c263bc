/**
 * Turns retrieval scores into a calibrated confidence: the estimated probability that the best article really
 * answers the question. A linear score of three signals (how well the best article matches, how far ahead of the
 * runner-up it is, and how much of the question the knowledge base has words for) goes through a monotone
 * piecewise-linear map fitted by isotonic regression. Both were fitted on the validation split of CLINC150 (never on
 * its test split) by `npm run bench:ai -- --calibrate`, which prints these constants; see
 * docs/decisions/2026-11-23-ai-retrieval-and-confidence.md.
 */
export interface ConfidenceSignals {
  /** Similarity of the best article's best-matching title, phrasing or sentence to the question (0..1). */
  best: number;
  /** Ranking score of the best article (0..1). */
  top: number;
  /** Score of the runner-up (0 when there is none). */
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
}

/** The signals of the best article and its runner-up for a question. */
export function signalsOf(
  query: { coverage: number; words: number; sentence?: Float32Array | null },
  top: { best: number; score: number } | undefined,
  second: number,
): ConfidenceSignals {
  return {
    best: top?.best ?? 0,
    top: top?.score ?? 0,
    second,
    coverage: query.coverage,
    words: query.words,
    sentences: Boolean(query.sentence),
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
  weights: { best: 7.041, margin: 5.089, coverage: 0.253 },
  bias: -3.597,
  knots: [
    [-3.19, 0.01],
    [-2.25, 0.016],
    [-1.94, 0.033],
    [-1.68, 0.07],
    [-1.37, 0.11],
    [-0.99, 0.2],
    [-0.5, 0.374],
    [0.32, 0.61],
    [1.02, 0.783],
    [1.63, 0.865],
    [2.21, 0.958],
    [2.84, 0.968],
    [3.7, 0.99],
    [4.73, 0.99],
    [7.84, 0.99],
  ],
  shortCaps: [0.96, 0.97],
};

export function calibrationFor(s: ConfidenceSignals): Calibration {
  return s.sentences ? CALIBRATION_WITH_SENTENCES : CALIBRATION;
}

export function confidenceOf(s: ConfidenceSignals, c: Calibration = calibrationFor(s)): number {
  if (s.best <= 0) return 0;
  const cap = s.words <= 1 ? c.shortCaps[0] : s.words === 2 ? c.shortCaps[1] : 1;
  const p = Math.min(cap, interpolate(linearScore(s, c), c.knots));
  return Math.round(Math.min(1, Math.max(0, p)) * 1000) / 1000;
}
