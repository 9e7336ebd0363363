import { describe, expect, it } from "vitest";
import { allDocs, anchors, brokenLinks, linkedFiles, readDoc, slug } from "./markdown-docs";

/**
 * The README is a short door into the guides under docs/; a reader who follows a link must land on
 * a file and a heading that exist, and no guide may be out of reach of the README.
 */
describe("the README's and the guides' links", () => {
  it("every relative link and #anchor of README.md and docs/*.md lands on a file and a heading", () => {
    const docs = allDocs();
    expect(docs.length).toBeGreaterThan(5);
    expect(docs.flatMap(brokenLinks)).toEqual([]);
  });

  it("the README links every guide under docs/", () => {
    const linked = new Set(linkedFiles(readDoc("README.md")));
    const guides = allDocs()
      .map((doc) => doc.path)
      .filter((path) => path.startsWith("docs/"));
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it("the checker itself refuses a missing file, a missing heading and a way out of the repository", () => {
    const fake = {
      path: "docs/fake.md",
      text: [
        "# A heading of its own",
        "[fine](emails.md#how-an-email-leaves) [fine too](#a-heading-of-its-own) [site](https://example.com)",
        "[gone](no-such-guide.md) [no heading](emails.md#no-such-heading) [out](../../elsewhere.md)",
        "[no own heading](#nowhere) `[in a code span](missing.md)`",
        "```text",
        "[in a code block](missing.md)",
        "```",
      ].join("\n"),
    };
    expect(brokenLinks(fake)).toEqual([
      "docs/fake.md: no-such-guide.md names no file",
      "docs/fake.md: emails.md#no-such-heading names no heading of docs/emails.md",
      "docs/fake.md: ../../elsewhere.md leaves the repository",
      "docs/fake.md: #nowhere names no heading of docs/fake.md",
    ]);
  });

  it("anchors follow GitHub's rules: code and punctuation dropped, repeats numbered", () => {
    expect(slug("What `npm start` does")).toBe("what-npm-start-does");
    expect(slug("Email paths: D1 round trips and CPU per email")).toBe(
      "email-paths-d1-round-trips-and-cpu-per-email",
    );
    expect([...anchors("# Top\n## Notes\n```sh\n# not a heading\n```\n## Notes\n")]).toEqual([
      "top",
      "notes",
      "notes-1",
    ]);
  });
});
