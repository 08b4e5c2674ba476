/** Template → Get Fields on the engine against the sandbox: the fields a body reads, typed. */
import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, run } from '../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

const BODY =
	'<h1>{{ customer.name | upcase }}</h1>{% for line in lines %}{{ line.label }} {{ line.price }}{% endfor %}' +
	'{{ total | round: 2 }} {{ note | default: "-" }}';
const SAMPLE = '{"customer": {"name": "Ada"}, "lines": [{"label": "Tea", "price": 3}], "total": 3}';

describe('template fields', () => {
	test('Get Fields lists the fields the body reads, typed from sample data, and missingFromSampleData', async () => {
		const created = await run(sb, {
			resource: 'template',
			operation: 'create',
			workspaceId: byId(sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id),
			templateFields: { identifier: 'fields', body: BODY, sampleData: SAMPLE },
		});
		const id = String(created.items[0].json.id);
		const result = await run(sb, {
			resource: 'template',
			operation: 'getFields',
			templateId: byId(id),
			version: 'draft',
		});
		expect(result.error).toBeUndefined();
		const json = result.items[0].json as { fields: Array<Record<string, unknown>> };
		const typed = Object.fromEntries(json.fields.map((f) => [f.path, [f.type, f.inSampleData]]));
		expect(typed).toMatchObject({
			'customer.name': ['string', true],
			lines: ['array', true],
			total: ['number', true],
			note: [expect.any(String), false],
		});
		expect(json.fields.find((f) => f.path === 'lines')!.itemFields).toEqual(
			expect.arrayContaining([
				{ path: 'label', type: 'string' },
				{ path: 'price', type: 'number' },
			]),
		);
		expect(result.items[0].json.missingFromSampleData).toEqual(['note']);
	});
});
