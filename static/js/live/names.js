// Names as people read them (the live table: one name, one player). Two names that look alike
// are one name: « Léa », « LÉA », « Lea », « L e a »-free spacing, « Lе́а » (Cyrillic е and а,
// a combining accent), « Lea\u200b » (a zero-width space) all read « Léa » at a table, so a device
// under any of them is handled as Léa (admission.js: refused while she is present, « C'est
// Léa ? » when she is away).
//
// The key is a confusables skeleton in the manner of Unicode's UTS #39 (section 4,
// "Confusable Detection": skeleton = NFD, remove default-ignorables, map each character to its
// prototype): no well-kept library runs in the browser for it, and a name at a table is Latin
// text, so the map here is the small table of the confusables that matter for Latin names
// (Cyrillic and Greek look-alikes, a few Latin letters with strokes, "rn" for "m"), with case,
// accents and spacing folded on top:
//   1. NFKD (compatibility forms: fullwidth and mathematical letters, ligatures, NBSP);
//   2. combining marks and Default_Ignorable code points (zero-width space and joiners, soft
//      hyphen, bidi marks, variation selectors) and other format or control characters removed;
//   3. upper-case look-alikes mapped (Greek Η is an H), then lower case (full: ß is ss), then
//      lower-case look-alikes mapped (Cyrillic а is an a), and the few multi-letter look-alikes;
//   4. every run of spaces one space, none at the ends.

/** Upper-case letters that look like a Latin capital (Cyrillic, Greek). */
const UPPER = {
  А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", Х: "X", У: "Y", І: "I", Ј: "J", Ѕ: "S",
  Ԁ: "D", Ԛ: "Q", Ԝ: "W", Һ: "H", Ү: "Y", Ӏ: "I",
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
};
/** Lower-case letters that look like a Latin small letter (Cyrillic, Greek, Latin with a stroke,
 * digits read as letters in a name). */
const LOWER = {
  а: "a", в: "b", г: "r", е: "e", к: "k", м: "m", н: "h", о: "o", п: "n", р: "p", с: "c", т: "t", у: "y", х: "x",
  ь: "b", ѕ: "s", і: "i", ј: "j", ԁ: "d", ԛ: "q", ԝ: "w", һ: "h", ӏ: "l", ү: "y", ɡ: "g", ɑ: "a", ο: "o",
  α: "a", β: "b", γ: "y", ε: "e", ζ: "z", η: "n", ι: "i", κ: "k", μ: "u", ν: "v", ρ: "p", τ: "t", υ: "u", χ: "x",
  ω: "w", ς: "c", ı: "i", ȷ: "j", ł: "l", ø: "o", đ: "d", ħ: "h", ŧ: "t", ƀ: "b", ɨ: "i", "0": "o", "1": "l", "|": "l",
};
const UPPER_RE = new RegExp(`[${Object.keys(UPPER).join("")}]`, "gu");
const LOWER_RE = new RegExp(`[${Object.keys(LOWER).join("").replace("|", "\\|")}]`, "gu");
/** Look-alikes of more than one letter (UTS #39's table: "rn" reads "m", "vv" reads "w"). */
const MULTI = [[/rn/g, "m"], [/vv/g, "w"]];
const INVISIBLE = /[\p{M}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/gu;

/** The key two names are compared by: equal keys, the same name as people read it (see above);
 * "" for no name (not text, or nothing visible). */
export function nameKey(name) {
  if (typeof name !== "string") return "";
  let s = name.normalize("NFKD").replace(INVISIBLE, (c) => (/\s/u.test(c) ? " " : ""));
  s = s.replace(UPPER_RE, (c) => UPPER[c]).toUpperCase().toLowerCase();
  s = s.normalize("NFKD").replace(INVISIBLE, "").replace(LOWER_RE, (c) => LOWER[c]);
  for (const [from, to] of MULTI) s = s.replace(from, to);
  return s.replace(/[\s\p{Z}]+/gu, " ").trim();
}
