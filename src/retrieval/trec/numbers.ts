/**
 * C's printf("%6.4f", x), as trec_eval prints measures. JavaScript's toFixed
 * rounds exact halves up, C rounds them to even; the two differ only when x
 * is exactly halfway between two 4-decimal numbers, which for a double means
 * x * 32 is an odd integer (x = 0.03125 prints "0.0312" in C).
 *
 * @example
 * formatFixed4(0.03125) // "0.0312"
 * formatFixed4(1 / 3)   // "0.3333"
 */
export function formatFixed4(x: number): string {
  const t = x * 32;
  let s: string;
  if (Number.isInteger(t) && Math.abs(t) % 2 === 1) {
    const n = Math.floor(Math.abs(x) * 1e4);
    const even = n % 2 === 0 ? n : n + 1;
    s = (x < 0 ? "-" : "") + (even / 1e4).toFixed(4);
  } else s = x.toFixed(4);
  return s.length < 6 ? s.padStart(6) : s;
}

/** Exact decimal digits of a positive finite double and the exponent of its first digit. */
function exactDigits(a: number): { digits: string; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (biased === 0) e2 = -1074;
  else {
    mant |= 1n << 52n;
    e2 = biased - 1075;
  }
  if (e2 >= 0) {
    const digits = (mant << BigInt(e2)).toString();
    return { digits, exp: digits.length - 1 };
  }
  const digits = (mant * 5n ** BigInt(-e2)).toString();
  return { digits, exp: digits.length - 1 + e2 };
}

/** The 17 significant digits of a positive double rounded half-to-even, as printf does. */
function digits17(a: number): { digits: string; exp: number } {
  const probe = a.toExponential(17); // 18 digits: is the 18th a 5 (a possible exact half)?
  if (probe[18] !== "5") {
    const s = a.toExponential(16);
    const [mant, e] = s.split("e") as [string, string];
    return { digits: mant.replace(".", ""), exp: Number(e) };
  }
  const { digits, exp } = exactDigits(a);
  if (digits.length <= 17) return { digits: digits.padEnd(17, "0"), exp };
  const head = digits.slice(0, 17);
  const next = digits.charCodeAt(17) - 48;
  const restZero = /^0*$/.test(digits.slice(18));
  const up = next > 5 || (next === 5 && (!restZero || (head.charCodeAt(16) - 48) % 2 === 1));
  if (!up) return { digits: head, exp };
  const bumped = (BigInt(head) + 1n).toString();
  return bumped.length > 17 ? { digits: bumped.slice(0, 17), exp: exp + 1 } : { digits: bumped, exp };
}

/**
 * C's printf("%.17g", x): the shortest text that always round-trips a
 * double, as trec_eval's full-precision output prints it ("0.2" is
 * "0.20000000000000001"), so `--full-precision` output can be compared
 * byte for byte as well as within a tolerance.
 *
 * @example
 * formatG17(0.2)   // "0.20000000000000001"
 * formatG17(0.25)  // "0.25"
 * formatG17(1e-5)  // "1.0000000000000001e-05"
 */
export function formatG17(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 ? "-" : "";
  const { digits, exp } = digits17(Math.abs(x));
  if (exp < -4 || exp >= 17) {
    const frac = digits.slice(1).replace(/0+$/, "");
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${digits[0]}${frac ? "." + frac : ""}e${exp < 0 ? "-" : "+"}${e}`;
  }
  let s: string;
  if (exp >= 0) {
    const int = digits.slice(0, exp + 1);
    const frac = digits.slice(exp + 1).replace(/0+$/, "");
    s = frac ? `${int}.${frac}` : int;
  } else {
    const frac = ("0".repeat(-exp - 1) + digits).replace(/0+$/, "");
    s = `0.${frac}`;
  }
  return sign + s;
}
