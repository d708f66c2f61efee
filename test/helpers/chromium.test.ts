import { describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_LAUNCH, isCi } from "./chromium.js";

describe("the browser suites' Chromium rules", () => {
  it("treats CI as set unless it is absent, empty, \"false\" or \"0\"", () => {
    expect([undefined, "", "false", "0"].map((CI) => isCi({ CI }))).toEqual([false, false, false, false]);
    expect(["true", "1", "yes"].map((CI) => isCi({ CI }))).toEqual([true, true, true]);
  });

  it("launches the configured Chromium headless, without a sandbox or background traffic", () => {
    expect(CHROMIUM).toBe(process.env.RAGJUDGE_CHROMIUM ?? "/usr/bin/chromium");
    expect(CHROMIUM_LAUNCH).toMatchObject({ executablePath: CHROMIUM, headless: true });
    expect(CHROMIUM_LAUNCH.args).toEqual(expect.arrayContaining(["--headless", "--no-sandbox", "--disable-background-networking", "--disable-component-update"]));
  });
});
