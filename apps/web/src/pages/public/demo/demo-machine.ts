/**
 * The setup demo's state machine (docs/product.md, "States"): idle -> running on Start (elapsed reset to 0) -> finished when the
 * elapsed time reaches the total; Reset returns to idle from anywhere. While running, every tick (TICK_MS) adds one
 * second of demo time, so the four demo minutes play in 12 real seconds.
 */

export const TICK_MS = 50;

export interface DemoStep {
  title: string;
  description: string;
  /** Demo seconds this step takes. */
  seconds: number;
  details: string;
}

export const DEMO_STEPS: readonly DemoStep[] = [
  {
    title: "Create Your Account",
    description: "Tell Cove who you are.",
    seconds: 60,
    details: "Company name, your name, email and a password. No card needed.",
  },
  {
    title: "Choose Your Team Size",
    description: "Decide who answers first.",
    seconds: 30,
    details: "Start with 1 to 3 agents and invite more whenever you need them.",
  },
  {
    title: "Connect Your Email",
    description: "Bring your support inbox in.",
    seconds: 45,
    details: "Gmail, Outlook or any IMAP email: messages start arriving as tickets.",
  },
  {
    title: "Customize Your Brand",
    description: "Make it look like you.",
    seconds: 60,
    details: "Upload your logo and set your colors for the portal and chat widget.",
  },
  {
    title: "Launch Your Helpdesk",
    description: "Go live.",
    seconds: 45,
    details: "Your dashboard is live, with the AI assistant active and answering.",
  },
];

/** 240 demo seconds, shown as 4:00. */
export const DEMO_TOTAL = DEMO_STEPS.reduce((sum, step) => sum + step.seconds, 0);

export type DemoStatus = "idle" | "running" | "finished";

export interface DemoState {
  status: DemoStatus;
  elapsed: number;
}

export type DemoEvent = { type: "start" } | { type: "tick" } | { type: "reset" };

export const initialDemo: DemoState = { status: "idle", elapsed: 0 };

export function demoReducer(state: DemoState, event: DemoEvent): DemoState {
  switch (event.type) {
    case "start":
      return { status: "running", elapsed: 0 };
    case "reset":
      return initialDemo;
    case "tick": {
      if (state.status !== "running") return state;
      const elapsed = Math.min(state.elapsed + 1, DEMO_TOTAL);
      return { status: elapsed >= DEMO_TOTAL ? "finished" : "running", elapsed };
    }
  }
}

export type StepProgress = "completed" | "current" | "upcoming";

/** Each step covers [start, start + seconds) of the demo; the step whose range holds `elapsed` is the current one. */
export function stepProgress(index: number, elapsed: number): StepProgress {
  const start = DEMO_STEPS.slice(0, index).reduce((sum, step) => sum + step.seconds, 0);
  const end = start + (DEMO_STEPS[index]?.seconds ?? 0);
  if (elapsed >= end) return "completed";
  if (elapsed >= start) return "current";
  return "upcoming";
}

/** Index of the current step, or -1 once every step is complete. */
export function currentStepIndex(elapsed: number): number {
  return DEMO_STEPS.findIndex((_, index) => stepProgress(index, elapsed) === "current");
}

/** m:ss, e.g. 0:05, 1:30, 4:00. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Whole percent of the demo played. */
export function progressPercent(elapsed: number): number {
  return Math.round((Math.min(elapsed, DEMO_TOTAL) / DEMO_TOTAL) * 100);
}
