import { describe, expect, it } from "vitest";
import { formatFixed4, formatG17 } from "../../../src/retrieval/trec/numbers.js";

// Expected strings printed by C's printf (glibc) for each value.
const G17: [number, string][] = [
  [0, "0"],
  [1, "1"],
  [7, "7"],
  [100, "100"],
  [0.2, "0.20000000000000001"],
  [0.25, "0.25"],
  [1 / 3, "0.33333333333333331"],
  [2 / 3, "0.66666666666666663"],
  [0.1 + 0.2, "0.30000000000000004"],
  [1e-5, "1.0000000000000001e-05"],
  [2 ** -30, "9.3132257461547852e-10"],
  [1.5e-300, "1.5000000000000001e-300"],
  [5e-324, "4.9406564584124654e-324"],
  [1e16, "10000000000000000"],
  [1e17, "1e+17"],
  [123456789.125, "123456789.125"],
  [12345678901234567, "12345678901234568"],
  // exact halves at the 17th digit: C rounds half to even, JavaScript's toPrecision rounds up
  [2 ** 50 + 0.25, "1125899906842624.2"],
  [2 ** 50 + 0.75, "1125899906842624.8"],
  [2 ** 49 + 0.125, "562949953421312.12"],
  [-0.2, "-0.20000000000000001"],
];

describe("formatG17 (printf %.17g)", () => {
  it.each(G17)("%s -> %s", (x, s) => expect(formatG17(x)).toBe(s));

  it("round-trips random doubles", () => {
    let x = 1;
    for (let i = 0; i < 5000; i++) {
      x = (Math.imul(x, 48271) + 11) >>> 0;
      const v = (x / 4294967296) * 10 ** ((x % 40) - 20);
      expect(Number(formatG17(v))).toBe(v);
    }
  });
});

describe("formatFixed4 (printf %6.4f)", () => {
  it("rounds exact halves to even as C does, everything else to nearest", () => {
    expect(formatFixed4(0.03125)).toBe("0.0312");
    expect(formatFixed4(0.09375)).toBe("0.0938");
    expect(formatFixed4(0.15625)).toBe("0.1562");
    expect(formatFixed4(1 / 3)).toBe("0.3333");
    expect(formatFixed4(2 / 3)).toBe("0.6667");
    expect(formatFixed4(1)).toBe("1.0000");
    expect(formatFixed4(0)).toBe("0.0000");
    expect(formatFixed4(0.00005)).toBe("0.0001");
  });
});
