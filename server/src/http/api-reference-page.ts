import type { OpenApiDocument } from '@tessera/contract/openapi';

/**
 * The API reference as one HTML page rendered from the OpenAPI document: no script, nothing
 * fetched, so it stands under the server's Content-Security-Policy as it is.
 */
export function apiReferencePage(document: OpenApiDocument, documentUrl: string): string {
  const info = document.info as { title: string; version: string; description: string };
  const tags = document.tags as { name: string; description: string }[];
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method,
      operation: operation as unknown as Operation,
    })),
  );
  const sections = tags.map(({ name, description }) => {
    const ofTag = operations.filter(({ operation }) => operation.tags[0] === name);
    return `<section><h2 id="${slug(name)}">${escape(name)}</h2><p>${escape(description)}</p>
${ofTag.map(({ path, method, operation }) => operationHtml(path, method, operation)).join('\n')}
</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><main><h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
${paragraphs(info.description)}
<p>The machine-readable document: <a href="${escape(documentUrl)}">${escape(documentUrl)}</a> (OpenAPI ${escape(document.openapi)}).</p>
<nav>${tags.map(({ name }) => `<a href="#${slug(name)}">${escape(name)}</a>`).join(' · ')}</nav>
${sections.join('\n')}
</main></body></html>`;
}

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, unknown>[];
  parameters?: {
    name: string;
    in: string;
    required: boolean;
    description?: string;
    schema: unknown;
  }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema?: unknown }> }
  >;
}

function operationHtml(path: string, method: string, operation: Operation): string {
  const auth = operation.security.map((scheme) => Object.keys(scheme)[0] ?? 'none').join(' or ');
  const parameters = (operation.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escape(p.name)}</code> (${p.in}${p.required ? ', required' : ''})${p.description ? `: ${escape(p.description)}` : ''}</li>`,
    )
    .join('');
  const body = operation.requestBody
    ? `<h4>Body</h4>${contentHtml(operation.requestBody.content)}`
    : '';
  const responses = Object.entries(operation.responses)
    .map(
      ([status, answer]) =>
        `<li><b>${escape(status)}</b> ${escape(answer.description)}${answer.content ? contentHtml(answer.content) : ''}</li>`,
    )
    .join('');
  return `<article id="${escape(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(operation.summary)}.${operation.description ? ` ${inline(operation.description)}` : ''}</p>
<p class="auth">Credentials: ${escape(auth || 'none')}</p>
${parameters ? `<h4>Parameters</h4><ul>${parameters}</ul>` : ''}${body}
<h4>Answers</h4><ul>${responses}</ul></article>`;
}

function contentHtml(content: Record<string, { schema?: unknown }>): string {
  return Object.entries(content)
    .map(([type, { schema }]) =>
      schema
        ? `<details><summary><code>${escape(type)}</code></summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`
        : ` <code>${escape(type)}</code>`,
    )
    .join('');
}

function paragraphs(text: string): string {
  return text
    .split('\n\n')
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('\n');
}

/** The document's little markdown: `code` and **bold**. */
function inline(text: string): string {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:60rem;margin:auto;padding:1rem 1.5rem}h1 small{font-size:.5em;color:#666}
nav{margin:1rem 0;line-height:2}article{background:#fff;border:1px solid #ddd;border-radius:6px;
padding:.5rem 1rem;margin:.75rem 0}h3{margin:.25rem 0;font-size:1.05rem}h4{margin:.5rem 0 .25rem}
.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;color:#fff;
font-size:.8rem;padding:.1rem .3rem}.get{background:#2e6fb7}.post{background:#2f8a4c}
.auth{color:#555;font-size:.9rem}pre{background:#f3f3f3;padding:.5rem;overflow:auto;font-size:.8rem}
details{display:inline-block;margin-left:.5rem;vertical-align:top}ul{margin:.25rem 0}`;
