import { render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOASTS_BELOW, useToastsBelow } from "./toasts-below.ts";

/** A row whose box on the screen is `top` to `bottom` (jsdom lays nothing out). */
function Row({ top, bottom }: { top: number; bottom: number }) {
  const row = useRef<HTMLDivElement>(null);
  useToastsBelow(row);
  return (
    <div
      ref={(el) => {
        row.current = el;
        if (el) el.getBoundingClientRect = () => ({ top, bottom }) as DOMRect;
      }}
    />
  );
}

const below = () => document.documentElement.style.getPropertyValue(TOASTS_BELOW);

describe("useToastsBelow", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("says how far down the lowest row near the top reaches, and forgets it when the rows go", () => {
    vi.stubGlobal("innerHeight", 844);
    const { unmount } = render(
      <>
        <Row top={88} bottom={128} />
        <Row top={92} bottom={124} />
      </>,
    );
    expect(below()).toBe("128px");
    unmount();
    expect(below()).toBe("");
  });

  it("leaves out a row further down the screen, and one scrolled away above it", () => {
    vi.stubGlobal("innerHeight", 844);
    const { unmount } = render(
      <>
        <Row top={600} bottom={640} />
        <Row top={-60} bottom={-20} />
      </>,
    );
    expect(below()).toBe("0px");
    unmount();
  });
});
