/**
 * Test harness: runs the BUILT package (dist/, as listed in package.json's `n8n` block) on
 * the real n8n engine from n8n-core / n8n-workflow (2.41, or the 1.x line under
 * `npm run test:compat`, see versions.ts) — no fakes of the engine.
 *
 *   const pkg = await loadPackage();                       // PackageDirectoryLoader
 *   const creds = credentialsFor(sandbox);                 // { baseUrl, apiKey }
 *   const { items, error } = await runNode({ parameters, items: [{...}], credentials: creds,
 *                                            nodeSettings: { onError: 'continueRegularOutput' } });
 *   const res = await runWorkflow(workflowJson, { credentials: creds }); // WorkflowExecute
 *   const poller = await createPoller({ parameters, credentials: creds });
 *   await poller.poll(); poller.staticData();              // PollContext, persistent static data
 *   await testCredential(creds);                           // { status: 'OK' | 'Error', message }
 *   await loadOptions('getTemplates', { credentials: creds, parameters });
 *   await listSearch('searchTemplates', { credentials: creds, filter, paginationToken });
 *   await getBinaryBuffer(items[0].binary!.data);          // BinaryDataService
 *
 * Jest must run `test/harness/setup-env.ts` as a setupFile (it points N8N_USER_FOLDER at a
 * temp folder before n8n-core loads).
 */
export {
	MANUAL_TRIGGER_TYPE,
	PROJECT_ROOT,
	HarnessManualTrigger,
	HarnessNodeTypes,
	loadPackage,
	type LoadedPackage,
} from './package';
export { HarnessCredentialsHelper, type CredentialStore } from './credentials';
export * from './engine';
export * from './workflows';
export * from './poller';
export * from './editor';
export * from './webhook';
