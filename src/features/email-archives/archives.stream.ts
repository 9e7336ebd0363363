import { log } from "../../lib/logger";

/**
 * The objects under `keys` one after another as one stream, starting with `first` (the object of
 * `keys[0]`, already fetched). Each next object is fetched only once the previous one is read to
 * its end, and chunks are passed on as they come: a day's file may be gigabytes, and memory only
 * ever holds a chunk of it.
 *
 * A later object that is gone errors the stream (logged with its key) rather than ending it early:
 * the response was already under way, so the client sees a broken transfer, never a shorter file
 * that looks whole. The caller also pipes this through a `FixedLengthStream` of the parts' summed
 * bytes, so an object of another size than its row says fails the transfer the same way.
 */
export function concatenatedObjects(
  bucket: R2Bucket,
  keys: readonly string[],
  first: R2ObjectBody,
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined = first.body.getReader();
  let next = 1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const key = keys[next++];
          if (key === undefined) return controller.close();
          const object = await bucket.get(key);
          if (!object) {
            log.error("email_archive_part_missing", { key });
            return controller.error(new Error(`Archive part ${key} is missing`));
          }
          reader = object.body.getReader();
        }
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        reader = undefined;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}
