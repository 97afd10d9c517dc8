/** `textread(path, '%s')`: every white-space separated token of the file is an image id. */
export function parseImageListTokens(text: string): string[] {
  return text.split(/\s+/).filter((t) => t.length > 0);
}
