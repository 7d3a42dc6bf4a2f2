/**
 * Captured files of one run: a tree, a preview modal (text as text, raster images as data: images),
 * a download per file and all of them as one .zip built in the page.
 */
import type { HtmlArtifact } from '../model.js';
import { base64ToBytes, downloadBytes, zipFiles } from './data.js';
import { fmtBytes, h, plural } from './dom.js';

const PREVIEW_CHARS = 500_000;
const IMAGE_TYPES = /^image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/;
const TEXT_TYPES =
  /^(?:text\/|application\/(?:json|ld\+json|xml|javascript|x-javascript|typescript|x-sh|x-yaml|yaml|toml|x-toml|sql|graphql|x-ndjson|ndjson))/;

interface Dir {
  dirs: Map<string, Dir>;
  files: { name: string; file: HtmlArtifact }[];
}

export function renderArtifacts(files: readonly HtmlArtifact[], zipName: string): HTMLElement {
  if (files.length === 0) return h('p', { class: 'empty' }, 'No files were captured for this run.');
  const embedded = files.filter((f) => f.content !== undefined);
  const all = h(
    'button',
    { type: 'button', class: 'btn primary', 'data-action': 'zip' },
    `Download all (.zip, ${plural(embedded.length, 'file')})`,
  );
  all.addEventListener('click', () => {
    const entries: Record<string, Uint8Array> = {};
    for (const f of embedded) entries[zipPath(f.path)] = base64ToBytes(f.content!);
    downloadBytes(zipFiles(entries), zipName, 'application/zip');
  });
  if (embedded.length === 0) all.setAttribute('disabled', '');
  const root: Dir = { dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split('/').filter((p) => p !== '');
    let dir = root;
    for (const p of parts.slice(0, -1)) {
      if (!dir.dirs.has(p)) dir.dirs.set(p, { dirs: new Map(), files: [] });
      dir = dir.dirs.get(p)!;
    }
    dir.files.push({ name: parts[parts.length - 1] ?? f.path, file: f });
  }
  return h('div', null, h('div', { class: 'toolbar' }, all), treeView(root));
}

function treeView(dir: Dir): HTMLElement {
  const ul = h('ul', { class: 'tree' });
  for (const [name, sub] of [...dir.dirs].sort((a, b) => a[0].localeCompare(b[0])))
    ul.appendChild(h('li', { class: 'tree-dir' }, h('span', null, `${name}/`), treeView(sub)));
  for (const { name, file } of dir.files) ul.appendChild(fileRow(name, file));
  return ul;
}

function fileRow(name: string, f: HtmlArtifact): HTMLElement {
  const li = h(
    'li',
    { class: `file${f.skipped ? ' skipped' : ''}`, 'data-path': f.path },
    h('span', { class: 'fname' }, name),
  );
  li.appendChild(h('span', { class: 'faint' }, `${fmtBytes(f.size)} · ${f.mimeType}`));
  if (f.skipped || f.content === undefined) {
    li.appendChild(
      h(
        'span',
        { class: 'muted' },
        f.skipped ? `not captured: ${f.skipped}` : `not embedded: ${f.omitted ?? 'no content'}`,
      ),
    );
    return li;
  }
  if (previewKind(f)) {
    const pv = h('button', { type: 'button', class: 'btn', 'data-action': 'preview' }, 'Preview');
    pv.addEventListener('click', () => openPreview(f, pv));
    li.appendChild(pv);
  }
  const dl = h('button', { type: 'button', class: 'btn', 'data-action': 'download' }, 'Download');
  dl.addEventListener('click', () => downloadBytes(base64ToBytes(f.content!), name, f.mimeType));
  li.appendChild(dl);
  return li;
}

function previewKind(f: HtmlArtifact): 'image' | 'text' | null {
  if (IMAGE_TYPES.test(f.mimeType)) return 'image';
  if (TEXT_TYPES.test(f.mimeType) || /\+(?:json|xml)$/.test(f.mimeType)) return 'text';
  return null;
}

/** Zip entry names stay inside the archive: no leading slash, no `..`. */
function zipPath(p: string): string {
  return (
    p
      .split('/')
      .filter((s) => s !== '' && s !== '.' && s !== '..')
      .join('/') || 'file'
  );
}

function openPreview(f: HtmlArtifact, opener: HTMLElement): void {
  const body = h('div', { class: 'modal-body' });
  if (previewKind(f) === 'image') {
    const mime = IMAGE_TYPES.test(f.mimeType) ? f.mimeType : 'application/octet-stream';
    body.appendChild(h('img', { src: `data:${mime};base64,${f.content!}`, alt: f.path }));
  } else {
    const text = new TextDecoder().decode(base64ToBytes(f.content!));
    const pre = h('pre');
    pre.textContent =
      text.length > PREVIEW_CHARS
        ? `${text.slice(0, PREVIEW_CHARS)}\n… (preview cut; download the file for all of it)`
        : text;
    body.appendChild(pre);
  }
  const close = h('button', { type: 'button', class: 'btn', 'aria-label': 'Close preview' }, 'Close');
  const dialog = h(
    'div',
    { class: 'modal', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'axis-modal-title' },
    h('div', { class: 'modal-head' }, h('h3', { id: 'axis-modal-title' }, f.path), close),
    body,
  );
  const back = h('div', { class: 'modal-back' }, dialog);
  const done = (): void => {
    document.removeEventListener('keydown', onKey, true);
    back.remove();
    opener.focus();
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      done();
    } else if (e.key === 'Tab') {
      // Only one focusable control: keep focus inside the dialog.
      e.preventDefault();
      close.focus();
    }
  };
  close.addEventListener('click', done);
  back.addEventListener('click', (e) => {
    if (e.target === back) done();
  });
  document.addEventListener('keydown', onKey, true);
  document.body.appendChild(back);
  close.focus();
}
