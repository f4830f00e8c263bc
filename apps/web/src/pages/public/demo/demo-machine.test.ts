import { describe, expect, it } from "vitest";
import {
  currentStepIndex,
  DEMO_STEPS,
  DEMO_TOTAL,
  type DemoEvent,
  type DemoState,
  demoReducer,
  formatClock,
  initialDemo,
  progressPercent,
  stepProgress,
} from "./demo-machine.ts";

function run(state: DemoState, ...events: DemoEvent[]): DemoState {
  return events.reduce(demoReducer, state);
}

const ticks = (n: number): DemoEvent[] => Array.from({ length: n }, () => ({ type: "tick" }) as const);

describe("demo steps", () => {
  it("are the spec's five steps, 4:00 in total", () => {
    expect(DEMO_STEPS.map((s) => [s.title, s.seconds])).toEqual([
      ["Create Your Account", 60],
      ["Choose Your Team Size", 30],
      ["Connect Your Email", 45],
      ["Customize Your Brand", 60],
      ["Launch Your Helpdesk", 45],
    ]);
    expect(DEMO_TOTAL).toBe(240);
    expect(formatClock(DEMO_TOTAL)).toBe("4:00");
  });
});

describe("demoReducer", () => {
  it("starts idle at 0 and ignores ticks until started", () => {
    expect(initialDemo).toEqual({ status: "idle", elapsed: 0 });
    expect(run(initialDemo, ...ticks(5))).toEqual(initialDemo);
  });

  it("counts one second per tick while running", () => {
    expect(run(initialDemo, { type: "start" }, ...ticks(3))).toEqual({ status: "running", elapsed: 3 });
  });

  it("finishes exactly when the elapsed time reaches the total, and stays there", () => {
    const almost = run(initialDemo, { type: "start" }, ...ticks(DEMO_TOTAL - 1));
    expect(almost).toEqual({ status: "running", elapsed: 239 });
    const done = run(almost, { type: "tick" });
    expect(done).toEqual({ status: "finished", elapsed: 240 });
    expect(run(done, ...ticks(10))).toEqual(done);
  });

  it("resets to idle at 0 from running and from finished", () => {
    expect(run(initialDemo, { type: "start" }, ...ticks(42), { type: "reset" })).toEqual(initialDemo);
    expect(run(initialDemo, { type: "start" }, ...ticks(DEMO_TOTAL), { type: "reset" })).toEqual(initialDemo);
  });

  it("restarts from 0 when started again", () => {
    const finished = run(initialDemo, { type: "start" }, ...ticks(DEMO_TOTAL));
    expect(run(finished, { type: "start" })).toEqual({ status: "running", elapsed: 0 });
    expect(run(initialDemo, { type: "start" }, ...ticks(100), { type: "start" })).toEqual({
      status: "running",
      elapsed: 0,
    });
  });
});

describe("step progress", () => {
  it("makes the step whose cumulative range holds the elapsed time current, earlier ones completed", () => {
    // Ranges: [0,60) [60,90) [90,135) [135,195) [195,240)
    expect(currentStepIndex(0)).toBe(0);
    expect(currentStepIndex(59)).toBe(0);
    expect(currentStepIndex(60)).toBe(1);
    expect(currentStepIndex(89)).toBe(1);
    expect(currentStepIndex(90)).toBe(2);
    expect(currentStepIndex(135)).toBe(3);
    expect(currentStepIndex(195)).toBe(4);
    expect(currentStepIndex(239)).toBe(4);
    expect(DEMO_STEPS.map((_, i) => stepProgress(i, 100))).toEqual([
      "completed",
      "completed",
      "current",
      "upcoming",
      "upcoming",
    ]);
  });

  it("marks every step completed at the end", () => {
    expect(currentStepIndex(DEMO_TOTAL)).toBe(-1);
    expect(DEMO_STEPS.every((_, i) => stepProgress(i, DEMO_TOTAL) === "completed")).toBe(true);
  });
});

describe("clock and progress", () => {
  it("formats m:ss", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(5)).toBe("0:05");
    expect(formatClock(59)).toBe("0:59");
    expect(formatClock(60)).toBe("1:00");
    expect(formatClock(135)).toBe("2:15");
  });

  it("gives whole percents", () => {
    expect(progressPercent(0)).toBe(0);
    expect(progressPercent(60)).toBe(25);
    expect(progressPercent(1)).toBe(0);
    expect(progressPercent(3)).toBe(1);
    expect(progressPercent(120)).toBe(50);
    expect(progressPercent(DEMO_TOTAL)).toBe(100);
  });
});
