/** Rejects when `work` has not settled within `ms`; the caller then closes the socket. */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  // The abandoned promise rejects later, when the socket closes; nobody is listening by then.
  work.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
