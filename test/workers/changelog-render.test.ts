import { describe, expect, it } from "vitest";
import { xmlText } from "../../src/features/changelog/changelog.feed";
import { renderMarkdown } from "../../src/features/changelog/changelog.markdown";
import { callJson, seedWorkspace } from "./helpers";

describe("Markdown rendering (unified in workerd)", () => {
  it("renders CommonMark and GitHub's extensions", async () => {
    expect(await renderMarkdown("# Title\n\n- [x] done\n\n| a |\n| - |\n| 1 |\n\nhttps://example.com")).toBe(
      '<h1>Title</h1>\n<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" checked disabled> done</li>\n</ul>\n<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>\n<p><a href="https://example.com">https://example.com</a></p>',
    );
  });

  // A scheme may stay as text (an autolink that is not a link), never as a URL attribute's value.
  const scriptUrl = /(href|src)="?\s*javascript:/i;
  it.each([
    ["a script block", "<script>alert(1)</script>", /<script/i],
    ["an inline image with onerror", "Hi <img src=x onerror=alert(1)>", /onerror/i],
    ["a javascript: link", "[click](javascript:alert(1))", scriptUrl],
    ["a javascript: link in capitals", "[click](JAVASCRIPT:alert(1))", scriptUrl],
    ["a javascript: autolink", "<javascript:alert(1)>", scriptUrl],
    ["a javascript: image", "![x](javascript:alert(1))", scriptUrl],
    ["a data: link", "[x](data:text/html,<script>alert(1)</script>)", /(href|src)="?data:/i],
    ["an iframe", '<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ["a style attribute", '<p style="position:fixed">x</p>', /style=/i],
  ])("renders %s harmless", async (_name, markdown, forbidden) => {
    expect(await renderMarkdown(markdown)).not.toMatch(forbidden);
  });

  it("keeps safe links and prefixes ids so they cannot clobber the page's", async () => {
    expect(await renderMarkdown("[docs](https://example.com/docs) [^1]\n\n[^1]: note")).toContain(
      'href="https://example.com/docs"',
    );
    const footnote = await renderMarkdown("[^1]\n\n[^1]: note");
    expect(footnote).toContain('href="#user-content-fn-1"');
    expect(footnote).toContain('<li id="user-content-fn-1">');
  });

  it("stores the rendered HTML on the entry and refuses HTML over 1 MB once rendered", async () => {
    const { token } = await seedWorkspace();
    const created = await callJson<{ body_html: string }>("POST", "/v1/changelog", {
      token,
      body: {
        title: "Safe",
        category: "fixed",
        body_markdown: "[x](javascript:alert(1)) <b onclick=x>y</b>",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.body_html).toBe("<p><a>x</a> y</p>");

    // A 60 KB link definition used 20 times renders to 1.2 MB of HTML from 60 KB of Markdown.
    const definition = `[r]: https://example.com/${"a".repeat(60_000)}`;
    const body_markdown = `${"[x][r] ".repeat(20)}\n\n${definition}`;
    const { status, body } = await callJson<{ code: string }>("POST", "/v1/changelog", {
      token,
      body: { title: "Huge", category: "new", body_markdown },
    });
    expect([status, body.code]).toEqual([400, "body_too_large"]);
  });
});

describe("xmlText", () => {
  it("escapes markup and quotes and drops characters XML forbids", () => {
    expect(xmlText(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;",
    );
    expect(xmlText("a\u0000b\u0001c\u001Fd\tE\nF\r\uFFFE\uFFFF")).toBe("abcd\tE\nF\r");
    expect(xmlText("lone \uD800 and \uDC00, pair \uD83D\uDE00")).toBe("lone  and , pair \uD83D\uDE00");
  });
});
