'use strict';
// Renders a template body with a payload, the way the service's Liquid templates do, for a
// small subset: {{ path | filter: arg }}, {% for x in path %}…{% endfor %},
// {% if path %}…{% else %}…{% endif %}, and the filters money, upcase, downcase, default,
// size, times, plus and minus. Unknown variables render as nothing (as in Liquid).

const TOKEN = /(\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\})/;

function lookup(scope, path) {
	let value = scope;
	for (const part of path.split('.')) {
		if (value === null || value === undefined) return undefined;
		value = /^\d+$/.test(part) && Array.isArray(value) ? value[Number(part)] : value[part];
	}
	return value;
}

function literal(text, scope) {
	const t = text.trim();
	if (/^".*"$|^'.*'$/.test(t)) return t.slice(1, -1);
	if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
	return lookup(scope, t);
}

const number = (v) => (typeof v === 'number' ? v : Number(v));

const FILTERS = {
	money: (v) => {
		const n = number(v);
		if (!Number.isFinite(n)) return v;
		const [whole, cents] = n.toFixed(2).split('.');
		return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
	},
	upcase: (v) => String(v ?? '').toUpperCase(),
	downcase: (v) => String(v ?? '').toLowerCase(),
	default: (v, d) => (v === undefined || v === null || v === '' ? d : v),
	size: (v) => (Array.isArray(v) || typeof v === 'string' ? v.length : 0),
	times: (v, n) => number(v) * number(n),
	plus: (v, n) => number(v) + number(n),
	minus: (v, n) => number(v) - number(n),
};

function evaluate(expression, scope) {
	const [head, ...filters] = expression.split('|');
	let value = literal(head, scope);
	for (const filter of filters) {
		const [name, args = ''] = filter.split(/:(.*)/s);
		const fn = FILTERS[name.trim()];
		if (!fn) continue;
		value = fn(
			value,
			...args
				.split(',')
				.filter((a) => a.trim() !== '')
				.map((a) => literal(a, scope)),
		);
	}
	return value;
}

/** Parses tokens into a tree: text, output, for and if nodes. */
function parse(tokens, stopAt = []) {
	const nodes = [];
	while (tokens.length) {
		const token = tokens.shift();
		const tag = /^\{%\s*(\w+)\s*([\s\S]*?)\s*%\}$/.exec(token);
		if (tag && stopAt.includes(tag[1])) return { nodes, end: tag[1] };
		if (tag && tag[1] === 'for') {
			const [, name, path] = /^(\w+)\s+in\s+(.+)$/.exec(tag[2]) || [];
			nodes.push({ type: 'for', name, path, body: parse(tokens, ['endfor']).nodes });
		} else if (tag && tag[1] === 'if') {
			const yes = parse(tokens, ['else', 'endif']);
			const no = yes.end === 'else' ? parse(tokens, ['endif']).nodes : [];
			nodes.push({ type: 'if', path: tag[2], yes: yes.nodes, no });
		} else if (/^\{\{[\s\S]*\}\}$/.test(token))
			nodes.push({ type: 'out', expression: token.slice(2, -2) });
		else if (!tag) nodes.push({ type: 'text', text: token });
	}
	return { nodes, end: null };
}

function run(nodes, scope) {
	let out = '';
	for (const node of nodes) {
		if (node.type === 'text') out += node.text;
		else if (node.type === 'out') {
			const value = evaluate(node.expression, scope);
			out += value === undefined || value === null ? '' : String(value);
		} else if (node.type === 'for') {
			const list = lookup(scope, node.path);
			for (const entry of Array.isArray(list) ? list : [])
				out += run(node.body, { ...scope, [node.name]: entry });
		} else if (node.type === 'if') {
			const value = evaluate(node.path, scope);
			const truthy = value !== undefined && value !== null && value !== false && value !== '';
			out += run(truthy ? node.yes : node.no, scope);
		}
	}
	return out;
}

/** The body rendered with the payload. */
function renderTemplate(body, payload) {
	const tokens = String(body)
		.split(TOKEN)
		.filter((t) => t !== '');
	return run(parse(tokens).nodes, payload && typeof payload === 'object' ? payload : {});
}

/** Whether a body uses template tags (otherwise the sandbox lists the payload instead). */
const isTemplated = (body) => typeof body === 'string' && /\{\{|\{%/.test(body);

module.exports = { renderTemplate, isTemplated };
