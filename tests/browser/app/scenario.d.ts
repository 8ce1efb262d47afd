/** The bundler app's use of the package (scenario.js): what it observed, as JSON data. */
export function scenario(
  lib: typeof import('tool-offload'),
  writer: import('tool-offload').FileWriter,
): Promise<unknown>;
