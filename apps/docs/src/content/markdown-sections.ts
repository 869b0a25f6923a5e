/** One searchable part of a page: the text under a `##` or `###` heading, or the page's intro. */
export interface MarkdownSection {
  /** The heading as plain text. */
  heading: string;
  /** The GitHub-style anchor of the heading, unique within the page. */
  anchor: string;
  /** The section's Markdown, heading line included. */
  markdown: string;
  /** The body as plain text on one line, for the search index and snippets. */
  text: string;
}

export interface SplitPage {
  /** The first `# ` heading, if the page has one. */
  title?: string;
  sections: MarkdownSection[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Strips inline Markdown (links, code spans, emphasis, escapes) and keeps the words. */
function inlineToText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]+?)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\*(\S[^*]*?)\*/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, '$1');
}

/** The anchor GitHub gives a heading: lowercase, punctuation dropped, each space a hyphen. */
export function githubAnchor(heading: string): string {
  return inlineToText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Hands out anchors as GitHub does: a repeated heading gets `-1`, `-2`, ... */
export class AnchorRegistry {
  private readonly used = new Set<string>();

  next(heading: string): string {
    const base = githubAnchor(heading);
    let anchor = base;
    for (let n = 1; this.used.has(anchor); n++) anchor = `${base}-${n}`;
    this.used.add(anchor);
    return anchor;
  }
}

/** Classifies lines as fence markers, code inside a fenced block, or ordinary text. */
function lineClassifier(): (line: string) => 'fence' | 'code' | 'text' {
  let open: string | undefined;
  return (line) => {
    const marker = FENCE.exec(line)?.[1];
    if (open === undefined) {
      open = marker;
      return marker ? 'fence' : 'text';
    }
    if (marker && marker[0] === open[0] && marker.length >= open.length) {
      open = undefined;
      return 'fence';
    }
    return 'code';
  };
}

/** Plain text of Markdown lines: fences, table rules, list and quote markers and inline syntax removed. */
export function markdownToText(lines: string[]): string {
  const classify = lineClassifier();
  const words: string[] = [];
  for (const line of lines) {
    const kind = classify(line);
    if (kind !== 'text') {
      if (kind === 'code') words.push(line);
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) continue;
    let text = line;
    if (/^\s*\|/.test(text)) {
      text = text
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join(' · ');
    }
    text = text
      .replace(HEADING, '$2')
      .replace(/^\s*>\s?/, '')
      .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '');
    words.push(inlineToText(text));
  }
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

interface Part {
  heading: string;
  anchor: string;
  headingLine?: string;
  body: string[];
}

/**
 * Splits a page at its `##` and `###` headings (ignoring `#` lines inside code fences). The text
 * before the first of them is the intro section, headed by the page title; a blank intro is dropped.
 */
export function splitSections(markdown: string, fallbackTitle: string): SplitPage {
  const anchors = new AnchorRegistry();
  const intro: Part = { heading: fallbackTitle, anchor: githubAnchor(fallbackTitle), body: [] };
  const parts: Part[] = [intro];
  const classify = lineClassifier();
  let title: string | undefined;

  for (const line of markdown.split(/\r?\n/)) {
    const heading = classify(line) === 'text' ? HEADING.exec(line) : null;
    const current = parts[parts.length - 1];
    if (heading) {
      const level = heading[1].length;
      const anchor = anchors.next(heading[2]);
      const text = inlineToText(heading[2]).trim();
      if (level === 1 && title === undefined && current === intro) {
        title = text;
        Object.assign(intro, { heading: text, anchor, headingLine: line });
        continue;
      }
      if (level === 2 || level === 3) {
        parts.push({ heading: text, anchor, headingLine: line, body: [] });
        continue;
      }
    }
    current.body.push(line);
  }

  const sections = parts.map(({ heading, anchor, headingLine, body }) => ({
    heading,
    anchor,
    markdown: [headingLine ?? '', ...body].join('\n').trim(),
    text: markdownToText(body),
  }));
  return { title, sections: sections.filter((section, index) => index > 0 || section.text !== '') };
}
