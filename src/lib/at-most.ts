/**
 * Workers open at most six connections at once per invocation; work beyond waits for one to close.
 * Fan-outs across shards (one D1 call each) keep within it on their own terms, so that a deployment
 * with many shards queues its own calls in order instead of stalling unrelated ones.
 */
export const CONNECTIONS_AT_ONCE = 6;

/** `work` for each item, at most `limit` running at once; answers in the items' order. */
export async function mapAtMost<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  limit = CONNECTIONS_AT_ONCE,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
