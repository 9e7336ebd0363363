/**
 * Group commit: callers each hand in one item and wait for its own answer, while the items that
 * arrive during a round trip go together in the next one. Work that must be written the moment it
 * happens (an email handed to the transport, its outcome) then costs one round trip when it comes
 * alone and still about one when a hundred come at once: nothing waits for a batch to fill, so
 * no write is delayed to save a round trip. Hand-written: it is a dozen lines around a queue, and
 * the batching libraries on npm wait for a size or a timer, which is exactly what must not happen.
 *
 * `run` answers one result per item, in order; when it throws, every item of that round rejects.
 */
export function groupCommit<I, O>(run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  let waiting: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function drain() {
    running = true;
    // Callers of the same tick join the first round.
    await Promise.resolve();
    while (waiting.length > 0) {
      const round = waiting;
      waiting = [];
      try {
        const answers = await run(round.map((w) => w.item));
        for (const [i, w] of round.entries()) w.resolve(answers[i] as O);
      } catch (error) {
        for (const w of round) w.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
