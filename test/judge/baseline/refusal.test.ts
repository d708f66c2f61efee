import { describe, expect, it } from "vitest";
import { detectRefusal, hasRefusalPhrase } from "../../../src/judge/baseline/refusal.js";

describe("refusal phrases", () => {
  it.each([
    // English
    "I could not find this information in the provided documents.",
    "I couldn\u2019t find that in the sources.",
    "Sorry, this information is not available.",
    "The documents do not mention a gym reimbursement.",
    "The provided context doesn't specify the fee.",
    "There is no information about bereavement leave.",
    "This is not mentioned in the policy.",
    "I don't know.",
    "NOT FOUND",
    "Not found.",
    "Unable to answer from the given documents.",
    "ERR-4044 is not described in the documents.",
    "The documents only describe the 2024 event; they don't say who won in 2023.",
    // Devanagari
    "दस्तावेज़ों में यह जानकारी नहीं मिली।",
    "मुझे इसकी जानकारी उपलब्ध नहीं है।",
    "इस बारे में कोई जानकारी नहीं दी गई है।",
    "मुझे नहीं पता।",
    "नीति में इसका उल्लेख नहीं है।",
    "दस्तावेज़ों में कैंटीन के खाने की कीमत नहीं दी गई है।",
    // romanised Hindi
    "Yeh jaankari uplabdh nahi hai.",
    "Iske baare mein jankari available nahin hai.",
    "Mujhe iska jawab nahi mila.",
    "Mujhe pata nahi.",
    "Mujhe nahi pata.",
    "Policy mein iska zikr nahi hai.",
    "Kochi office ki parking ke baare mein kuch nahi likha.",
  ])("refusal: %s", (text) => expect(hasRefusalPhrase(text)).toBe(true));

  it.each([
    "Casual leave is not available to interns.",
    "Unused casual leave is not carried forward.",
    "You get 8 days of casual leave a year.",
    "No, casual leave lapses on 31 December.",
    "Interns ko casual leave nahi milti, unke contract dekhiye.",
    "आपको 8 दिन की आकस्मिक छुट्टी मिलती है।",
    "दस्तावेज़ों में लिखा है कि आकस्मिक छुट्टी आगे नहीं बढ़ती।",
    "Is plan mein paisa wapas nahi diya jata.",
    "It does not expire.",
    "",
  ])("not a refusal: %s", (text) => expect(hasRefusalPhrase(text)).toBe(false));
});

describe("detectRefusal", () => {
  it("finds a refusal among other sentences and reports its sentence", () => {
    const r = detectRefusal("Casual leave is 8 days a year. The documents do not say whether it can be encashed.", 3);
    expect(r.refused).toBe(true);
    expect(r.phrase).toBe("The documents do not say whether it can be encashed.");
  });

  it("a refusal followed by 'but' and a statement is a hedged answer, not a refusal", () => {
    const r = detectRefusal("The documents don't say, but it is usually 5 working days.", 3);
    expect(r.refused).toBe(false);
    expect(r.hedged).toBe("it is usually 5 working days.");
  });

  it("a hedge in the next sentence counts too, in Hindi as in English", () => {
    expect(detectRefusal("Yeh jaankari uplabdh nahi hai. Lekin aam taur par 5 din milte hain.", 3).refused).toBe(false);
    expect(detectRefusal("यह जानकारी उपलब्ध नहीं है, लेकिन आमतौर पर 5 दिन मिलते हैं।", 3).refused).toBe(false);
  });

  it("'but' followed by a courtesy or another refusal is still a refusal", () => {
    expect(detectRefusal("I could not find this, but sorry.", 3).refused).toBe(true);
    expect(detectRefusal("I could not find this, but the documents do not mention it either.", 3).refused).toBe(true);
  });

  it("ignores citation markers", () => expect(detectRefusal("Not found [1].", 3).refused).toBe(true));
});
