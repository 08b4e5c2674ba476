/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: reads the docs in Node under jest, never inside n8n */
/**
 * No dead link: every relative link and image of the README and of the pages in docs/ leads
 * to a file or folder of the repository, and every anchor (`page.md#heading`, `#heading`) to
 * a heading of that page, as GitHub and npm name them.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Pages linked before they are written. A link to one passes while it is missing; once the
 * page exists, the test below fails until it is taken off this list, so its links are checked.
 */
const PAGES_TO_COME: string[] = [];

/** The README and the pages directly in docs/, as paths from the repository's root. */
function documentationPages(): string[] {
	const pages = fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`);
	return ['README.md', ...pages.sort()];
}

/** The text outside fenced code blocks, each code span emptied (links in code are no links). */
function proseOf(markdown: string): string[] {
	const lines: string[] = [];
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (line.trimStart().startsWith('```')) {
			inFence = !inFence;
			continue;
		}
		if (!inFence) lines.push(line.replace(/`[^`]*`/g, '``'));
	}
	return lines;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a page's headings (a repeated heading gets -1, -2, …). */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseOf(markdown)) {
		const heading = /^#{1,6} (.*)$/.exec(line);
		if (!heading) continue;
		const slug = slugOf(heading[1].replace(/``/g, ''));
		const count = seen.get(slug) ?? 0;
		anchors.add(count ? `${slug}-${count}` : slug);
		seen.set(slug, count + 1);
	}
	return anchors;
}

/** The targets of a page's inline links and images (`[text](target)`, `![alt](target)`). */
function linksOf(markdown: string): string[] {
	const targets: string[] = [];
	for (const line of proseOf(markdown)) {
		for (const match of line.matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(match[1]);
	}
	return targets;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with one relative link of a page (undefined: it leads somewhere). */
function deadLinkOf(page: string, target: string): string | undefined {
	const [pathPart, anchor] = target.split('#', 2);
	const file = pathPart
		? path.posix.normalize(path.posix.join(path.posix.dirname(page), pathPart))
		: page;
	if (file.startsWith('../')) return `${target}: outside the repository`;
	if (!fs.existsSync(path.join(ROOT, file)))
		return PAGES_TO_COME.includes(file) ? undefined : `${target}: no file ${file}`;
	if (anchor === undefined || !file.endsWith('.md')) return undefined;
	const anchors = anchorsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'));
	return anchors.has(anchor) ? undefined : `${target}: no heading #${anchor} in ${file}`;
}

function deadLinksOf(page: string, markdown: string): string[] {
	return linksOf(markdown)
		.filter((target) => !isExternal(target))
		.map((target) => deadLinkOf(page, target))
		.filter((problem): problem is string => problem !== undefined);
}

describe('no dead link in the README and docs/', () => {
	test.each(documentationPages())('%s: every relative link and anchor leads somewhere', (page) => {
		const markdown = fs.readFileSync(path.join(ROOT, page), 'utf8');
		expect(linksOf(markdown).length).toBeGreaterThan(0);
		expect(deadLinksOf(page, markdown)).toEqual([]);
	});

	test('the README links at least three pages of docs/', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const pages = new Set(linksOf(readme).filter((target) => /^docs\/[^/#]+\.md/.test(target)));
		expect(pages.size).toBeGreaterThanOrEqual(3);
	});

	test('a page linked before it is written is taken off the list once it exists', () => {
		expect(PAGES_TO_COME.filter((file) => fs.existsSync(path.join(ROOT, file)))).toEqual([]);
	});
});

describe('the link check itself', () => {
	test('headings become the anchors GitHub makes', () => {
		expect(slugOf('Triggers and exactly-once')).toBe('triggers-and-exactly-once');
		expect(slugOf('Exactly once (polling)')).toBe('exactly-once-polling');
		expect(slugOf('Install in n8n')).toBe('install-in-n8n');
		expect(slugOf('One document, and the sync threshold')).toBe(
			'one-document-and-the-sync-threshold',
		);
		expect([...anchorsOf('# A\n## Notes\n```\n# not a heading\n```\n## Notes\n')]).toEqual([
			'a',
			'notes',
			'notes-1',
		]);
	});

	test('finds a missing file, a missing heading, and a link leaving the repository; skips code and web links', () => {
		const page = [
			'[ok](docs/development.md#end-to-end) [web](https://example.com/x)',
			'# A page',
			'[gone](docs/no-such-page.md) [heading](docs/development.md#no-such-heading)',
			'[out](../elsewhere.md) `[code](docs/nothing.md)`',
			'```',
			'[fenced](docs/nothing.md)',
			'```',
		].join('\n');
		expect(deadLinksOf('README.md', page)).toEqual([
			'docs/no-such-page.md: no file docs/no-such-page.md',
			'docs/development.md#no-such-heading: no heading #no-such-heading in docs/development.md',
			'../elsewhere.md: outside the repository',
		]);
	});
});
