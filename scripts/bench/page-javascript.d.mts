export const PAGE_JS_BUDGET_KB: number;
export function pageScripts(html: string): Set<string>;
export function pageJavaScript(
  origin: string,
  html: string,
  cache?: Map<string, { gzip: number; charts: boolean }>,
): Promise<{ kb: number; files: string[]; charts: boolean }>;
