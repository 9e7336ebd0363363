import { describe, expect, it } from "vitest";
import { idPattern, newId } from "../../src/lib/ids";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

describe("newId", () => {
  it("makes well-formed, unique ids that sort in the order they were made", () => {
    const ids = Array.from({ length: 5_000 }, () => newId("req"));
    expect(ids.every((id) => new RegExp(idPattern("req")).test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("draws the random part evenly from all 32 characters", async () => {
    // A fresh random part starts with each new millisecond; within one, ulid increments it.
    const firsts: string[] = [];
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      firsts.push(newId("req").slice(4 + 10));
    }
    const counts = new Map<string, number>();
    for (const random of firsts) for (const char of random) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 640 characters: every one of the 32 appears, and none far more often than the 20 expected.
    expect([...counts.keys()].sort().join("")).toBe(ALPHABET);
    expect(Math.max(...counts.values())).toBeLessThan(45);
  });
});
