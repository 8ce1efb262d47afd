// Drawing a run: the totals, and per replaced tool result a bar of what was moved out,
// and the content before beside what the model now sees.
import type { Change, RunResult } from './run.ts';

const number = new Intl.NumberFormat('en-US');

/** `id`'s element (the page defines every one this module uses). */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function renderRun(result: RunResult): void {
  $('before-chars').textContent = number.format(result.before.chars);
  $('before-tokens').textContent = number.format(result.before.tokens);
  $('after-chars').textContent = number.format(result.after.chars);
  $('after-tokens').textContent = number.format(result.after.tokens);
  const saved = result.before.chars === 0 ? 0 : 1 - result.after.chars / result.before.chars;
  $('saved').textContent = `${(saved * 100).toFixed(1)} %`;
  const list = $('changes');
  list.replaceChildren();
  if (result.changes.length === 0) {
    list.append(element('li', { className: 'empty' }, 'Nothing was over the limits: the conversation is unchanged.'));
  }
  for (const change of result.changes) list.append(changeItem(change));
}

function changeItem(change: Change): HTMLElement {
  const kept = change.beforeChars === 0 ? 1 : Math.min(1, change.afterChars / change.beforeChars);
  const bar = element('div', { className: 'bar', role: 'img' });
  bar.setAttribute(
    'aria-label',
    `${number.format(change.beforeChars - change.afterChars)} of ${number.format(change.beforeChars)} characters moved out`,
  );
  const keptPart = element('span');
  keptPart.style.width = `${(kept * 100).toFixed(2)}%`;
  bar.append(keptPart);
  const original = change.original.length > 2000 ? `${change.original.slice(0, 2000)}…` : change.original;
  const item = element('li');
  item.dataset.testid = 'change';
  item.append(
    element(
      'div',
      { className: 'head' },
      element('span', { className: 'id' }, change.id),
      element('span', {}, `${number.format(change.beforeChars)} → ${number.format(change.afterChars)} chars`),
    ),
    bar,
    element(
      'div',
      { className: 'legend' },
      element('i', { style: 'background: var(--kept)' }),
      'what the model sees',
      element('i', { style: 'background: var(--moved)' }),
      'moved to an artifact',
    ),
    element(
      'div',
      { className: 'compare' },
      element(
        'div',
        {},
        element('h3', {}, 'Before (first 2,000 characters)'),
        element('pre', { className: 'mono' }, original),
      ),
      element(
        'div',
        {},
        element('h3', {}, 'After: what the model sees'),
        withTestId(element('pre', { className: 'mono', tabIndex: 0 }, change.replacement), 'replacement'),
      ),
    ),
  );
  return item;
}

function withTestId<T extends HTMLElement>(el: T, id: string): T {
  el.dataset.testid = id;
  return el;
}

/** A new element with `props` and `children`. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Omit<HTMLElementTagNameMap[K], 'style'>> & { style?: string; role?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const { style, role, ...rest } = props;
  Object.assign(el, rest);
  if (style !== undefined) el.setAttribute('style', style);
  if (role !== undefined) el.setAttribute('role', role);
  el.append(...children);
  return el;
}
