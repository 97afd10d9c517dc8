import { describe, expect, it } from 'vitest';
import { DevkitError } from '@cvdevkit/core';
import { parseDevkitXml } from './xml.js';
import { visibleQuote } from './visible.js';

function message(text: string): string {
  try {
    parseDevkitXml(text, 'a.xml');
  } catch (e) {
    expect(e).toBeInstanceOf(DevkitError);
    return (e as Error).message;
  }
  throw new Error('parsed');
}

describe('XML errors in cvdevkit words, at the line and column of the original file', () => {
  it('mismatched, unclosed and missing elements', () => {
    expect(message('<annotation>\n  <segmented>0\n</annotation>')).toBe('a.xml:3:1: expected </segmented> (to close <segmented> opened at line 2, column 3), found </annotation>');
    expect(message('<annotation>\n<object>\n  <segmented>0')).toMatch(/^a\.xml:3:\d+: expected <\/segmented> <\/object> <\/annotation> before the end of the file, found the end of the file/);
    expect(message('')).toBe('a.xml: expected an XML root element such as <annotation>, found no element (an empty or text-only file)');
    expect(message('junk')).toMatch(/^a\.xml:1:1: expected an XML element such as <annotation>, found text "j" outside any element$/);
  });

  it('never shows the parser\'s own text', () => {
    for (const t of ['<a><b></a>', '<a', '<a>1</a><b>2</b>', '<a x=1></a>', '< a></a>', '<1a></1a>', '<a>1</a>junk']) {
      expect(message(t)).not.toMatch(/Invalid '\[|Start tag expected|opened in line|:undefined|is not expected\./);
    }
  });
});

describe('visibleQuote', () => {
  it('makes a BOM and control characters visible', () => {
    expect(visibleQuote('\ufeff2010_000049')).toBe('"\\uFEFF2010_000049" (starts with a UTF-8 byte order mark)');
    expect(visibleQuote('a\u0000b\tc\u200bd')).toBe('"a\\u0000b\\tc\\u200Bd"');
    expect(visibleQuote('x'.repeat(50))).toBe(`"${'x'.repeat(37)}…"`);
  });
});
