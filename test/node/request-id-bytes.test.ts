import { describe, expect, it } from "vitest";
import {
  requestIdFromHex,
  requestIdTime,
  requestIdToHex,
} from "../../src/features/request-logs/request-id-bytes";
import { newId } from "../../src/lib/ids";

describe("a request id as the 16 bytes a log row keeps", () => {
  it("comes back exactly, with the time it was made, and sorts as the id does", () => {
    const before = Date.now();
    const ids = Array.from({ length: 2_000 }, () => newId("req"));
    const hexes = ids.map((id) => requestIdToHex(id) as string);
    expect(hexes.every((hex) => /^[0-9a-f]{32}$/.test(hex))).toBe(true);
    expect(hexes.map(requestIdFromHex)).toEqual(ids);
    expect(requestIdTime(hexes[0] as string)).toBeGreaterThanOrEqual(before);
    expect([...hexes].sort()).toEqual(hexes);
  });

  it("covers the whole ULID range and refuses what is not a request id", () => {
    for (const id of ["req_00000000000000000000000000", "req_7ZZZZZZZZZZZZZZZZZZZZZZZZZ"])
      expect(requestIdFromHex(requestIdToHex(id) as string)).toBe(id);
    for (const id of [
      "req_nothing",
      "key_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
      "req_81JD3Z6X8Y9ABCDEFGHJKMNPQR",
      "req_01JD3Z6X8Y9ABCDEFGHJKMNPQU",
    ])
      expect(requestIdToHex(id)).toBeNull();
  });
});
