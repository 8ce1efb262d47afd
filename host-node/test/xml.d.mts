/** An element as `parseXml` reports it. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** Text directly after the start tag and its children's text, concatenated. */
  text?: string;
}

/** The elements of `xml` in document order; throws on any well-formedness error. */
export function parseXml(xml: string): XmlElement[];
