import { sleep } from "./process-group";

/**
 * The call again after a connection failure: the local `wrangler dev` reloads now and then (when
 * another wrangler on the machine, such as the local runtime a seed opens, changes the dev
 * registry) and refuses connections meanwhile. An HTTP answer, whatever its status, is no failure.
 */
export async function retried<T>(attempt: () => Promise<T>, tries = 10, waitMs = 2_000): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !(error instanceof TypeError)) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? error.message;
      console.warn(`  connection failed (${cause}), trying again in ${waitMs / 1000} s`);
      await sleep(waitMs);
    }
  }
}
