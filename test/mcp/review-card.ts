import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';

export const REVIEW_CARD = 'ui://legwork/review-card';
export const MCP_APP_MIME = 'text/html;profile=mcp-app';

export interface ServedCard {
  html: string;
  meta: { ui: { csp: { resourceDomains: string[] }; prefersBorder: boolean } };
}

/**
 * Checks, through the official client, that a server lists the review card, links it from get_results, and serves
 * it with its CSP in `_meta.ui.csp` and in the page itself; answers the page and its metadata.
 */
export async function expectReviewCard(client: Client, photoOrigins: string[]): Promise<ServedCard> {
  const { resources } = await client.listResources();
  const listed = resources.find((r) => r.uri === REVIEW_CARD);
  expect(listed).toMatchObject({ name: 'review_card', mimeType: MCP_APP_MIME });
  expect(listed?._meta).toEqual({ ui: { csp: { resourceDomains: photoOrigins }, prefersBorder: true } });

  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'get_results')?._meta).toEqual({
    ui: { resourceUri: REVIEW_CARD },
    'ui/resourceUri': REVIEW_CARD,
  });
  // Only get_results renders the card; review_submission is the tool its buttons call.
  expect(tools.filter((t) => t._meta?.ui).map((t) => t.name)).toEqual(['get_results']);

  const { contents } = await client.readResource({ uri: REVIEW_CARD });
  expect(contents).toHaveLength(1);
  const [content] = contents as [{ uri: string; mimeType: string; text: string; _meta: ServedCard['meta'] }];
  expect(content).toMatchObject({ uri: REVIEW_CARD, mimeType: MCP_APP_MIME });
  expect(content._meta).toEqual(listed?._meta);
  const html = content.text;
  expect(html.startsWith('<!DOCTYPE html>')).toBe(true);

  // The page's own policy: nothing by default, its one script and one style by hash, images from the photo
  // origins only, no network, no frames, no forms, no base.
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  expect([scripts.length, styles.length]).toEqual([1, 1]);
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  expect(policy?.split('; ')).toEqual([
    "default-src 'none'",
    `script-src ${sha(scripts[0])}`,
    `style-src ${sha(styles[0])}`,
    `img-src ${[...photoOrigins, 'data:'].join(' ')}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ]);
  // Self-contained: no script, style sheet or image is fetched by the page itself.
  expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)=/i);
  return { html, meta: content._meta };
}
