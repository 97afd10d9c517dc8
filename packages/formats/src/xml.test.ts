import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DevkitError } from '@cvdevkit/core';
import { childArray, parseDevkitXml, parsePascalAnnotation } from './xml.js';
import { str2double } from './numbers.js';

const VOC = `<annotation>
\t<folder>VOC2010</folder>
\t<filename>2010_000001.jpg</filename>
\t<size><width>500</width><height>375</height><depth>3</depth></size>
\t<segmented>0</segmented>
\t<object>
\t\t<name>person</name><pose>Unspecified</pose><truncated>1</truncated><difficult>0</difficult>
\t\t<bndbox><xmin>10.5</xmin><ymin>20</ymin><xmax>30</xmax><ymax>4\n0</ymax></bndbox>
\t\t<part><name>head</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>3</xmax><ymax>4</ymax></bndbox></part>
\t\t<part><name>hand</name><bndbox><xmin>5</xmin><ymin>6</ymin><xmax>7</xmax><ymax>8</ymax></bndbox></part>
\t\t<actions><phoning>1</phoning><reading>0</reading></actions>
\t</object>
\t<object><name>dog</name><difficult>1</difficult><bndbox><xmin>1</xmin><ymin>1</ymin><xmax>2</xmax><ymax>2</ymax></bndbox></object>
</annotation>`;

describe('parsePascalAnnotation', () => {
  it('reads objects, flags, parts, actions and the VOCxml2struct quirks', () => {
    const a = parsePascalAnnotation(VOC, 'a.xml');
    expect(a.filename).toBe('2010_000001.jpg');
    expect(a.size).toEqual({ width: 500, height: 375, depth: 3 });
    expect(a.segmented).toBe(false);
    expect(a.objects).toHaveLength(2);
    const [p, d] = a.objects;
    expect(p.name).toBe('person');
    expect(p.pose).toBe('');
    expect(p.truncated).toBe(true);
    expect(p.difficult).toBe(false);
    // the newline inside "4\n0" is deleted, as VOCxml2struct does
    expect(p.bbox).toEqual([10.5, 20, 30, 40]);
    expect(p.parts.map((x) => x.name)).toEqual(['head', 'hand']);
    expect(p.actions).toEqual({ phoning: true, reading: false });
    expect(d.difficult).toBe(true);
  });

  it('accepts an annotation without objects', () => {
    expect(parsePascalAnnotation('<annotation><filename>x</filename></annotation>').objects).toEqual([]);
  });

  it('rejects malformed XML and a wrong root with a DevkitError naming the file', () => {
    expect(() => parsePascalAnnotation('<annotation><object></annotation>', 'bad.xml')).toThrow(DevkitError);
    expect(() => parsePascalAnnotation('<annotation><object></annotation>', 'bad.xml')).toThrow(/bad\.xml/);
    expect(() => parsePascalAnnotation('<foo></foo>', 'f.xml')).toThrow(/annotation/);
  });

  it('keeps repeated children as arrays and single ones as one', () => {
    const doc = parseDevkitXml('<r><a>1</a><a>2</a><b>x</b></r>');
    const r = doc.r as Record<string, unknown>;
    expect(childArray(r as never, 'a')).toEqual(['1', '2']);
    expect(childArray(r as never, 'b')).toEqual(['x']);
    expect(childArray(r as never, 'c')).toEqual([]);
  });

  it('never throws anything but DevkitError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          parsePascalAnnotation(s);
        } catch (e) {
          expect(e).toBeInstanceOf(DevkitError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('str2double', () => {
  it('reads a plain run of digits (its fast path) as Number does', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9]{1,17}$/), (d) => {
      expect(str2double(d)).toBe(Number(d));
    }));
  });

  it('parses MATLAB number forms', () => {
    expect(str2double(' 12.5 ')).toBe(12.5);
    expect(str2double('1e2')).toBe(100);
    expect(str2double('1D2')).toBe(100);
    expect(Object.is(str2double('-0'), -0)).toBe(true);
    expect(str2double('Inf')).toBe(Infinity);
    expect(str2double('-inf')).toBe(-Infinity);
    expect(str2double('NaN')).toBeNaN();
    expect(str2double('12abc')).toBeNaN();
    expect(str2double(undefined)).toBeNaN();
    expect(str2double('')).toBeNaN();
  });

  it('round-trips every finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Object.is(str2double(Object.is(x, -0) ? '-0' : String(x)), x)).toBe(true);
      }),
    );
  });
});
