// A strict XML 1.0 parser (saxes) behind a small typed surface: tests check that text we
// promise is XML parses as such. Plain JS so the type check does not load saxes' own
// declarations (they do not pass this repository's strict settings).
import { SaxesParser } from 'saxes';

/** The elements of `xml` in document order, each with its attributes; throws on any well-formedness error. */
export function parseXml(xml) {
  const parser = new SaxesParser();
  const elements = [];
  let failure;
  parser.on('opentag', (tag) => elements.push({ name: tag.name, attributes: { ...tag.attributes } }));
  parser.on('text', (text) => {
    const last = elements[elements.length - 1];
    if (last) last.text = (last.text ?? '') + text;
  });
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.write(xml).close();
  if (failure) throw failure;
  return elements;
}
