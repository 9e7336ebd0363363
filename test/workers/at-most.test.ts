import { describe, expect, it } from "vitest";
import { mapAtMost } from "../../src/lib/at-most";

describe("fan-outs across shards keep within Workers' six connections at once", () => {
  it("runs at most six at a time and answers in the items' order", async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    const answers = await mapAtMost(items, async (i) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (20 - i) % 7));
      running -= 1;
      return i * 2;
    });
    expect(answers).toEqual(items.map((i) => i * 2));
    expect(most).toBe(6);
  });

  it("answers nothing for no items, and a failure rejects", async () => {
    expect(await mapAtMost([], async () => 1)).toEqual([]);
    await expect(
      mapAtMost([1, 2], async (i) => (i === 2 ? Promise.reject(new Error("down")) : i)),
    ).rejects.toThrow("down");
  });
});
