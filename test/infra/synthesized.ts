import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routeTable, routes } from '../../functions/routes/index';
import type { TableRoute } from '../../functions/routes/route';
import { domainOf } from '../../lib/domain-stack';
import { buildApp } from '../../lib/app';
import { newApp } from './template-helpers';

type Json = Record<string, any>;

interface Synthesis {
  /** Stack name → its template. */
  templates: Record<string, Json>;
  coreStackName: string;
  /** Domain → stack name. */
  domainStacks: Record<string, string>;
  /** Construct path of every resource → its stack and logical id. */
  paths: Record<string, { stack: string; logicalId: string }>;
  /** cdk-nag AwsSolutions violations not acknowledged, as `severity rule: paths`. */
  violations: string[];
  /** The definition file each state machine (by logical id) loads from its S3 asset, as text. */
  definitions: Record<string, string>;
  /** Stack name → whether CloudFormation refuses to delete it. */
  terminationProtection: Record<string, boolean>;
  /** Stack name → the stacks it depends on (deployed before it). */
  dependencies: Record<string, string[]>;
}

export interface SynthesizeOptions {
  /** Synthetic routes added to the route table (copies of GET /v1/projects/{id}) in domain `domain`. */
  extraRoutes?: { count: number; domain: string };
}

/**
 * `count` routes like one of `domain` (GET /v1/projects/{id} for a new domain), each on its own
 * path, in `domain`: copies share the role of the route they copy, as a new route of the domain would.
 */
export const syntheticRoutes = (count: number, domain: string): TableRoute[] => {
  const template = routeTable.find((route) => domainOf(route) === domain) ?? routes.find((route) => route.operationId === 'getProject');
  if (!template) throw new Error('getProject is not in the route table');
  return Array.from({ length: count }, (_, i) => ({
    ...template,
    operationId: `synthetic${domain}${i}`,
    path: `/v1/synthetic-${domain.toLowerCase()}/${i}/{id}`,
    domain,
  }));
};

const synthesize = (context: Record<string, unknown>, options: SynthesizeOptions): Synthesis => {
  const app = newApp({ ...context, 'aws:cdk:enable-path-metadata': true });
  const extra = options.extraRoutes ? syntheticRoutes(options.extraRoutes.count, options.extraRoutes.domain) : [];
  const built = buildApp(app, { routes: [...routeTable, ...extra] });
  const assembly = app.synth();
  const templates: Record<string, Json> = {};
  const paths: Synthesis['paths'] = {};
  const definitions: Record<string, string> = {};
  const terminationProtection: Record<string, boolean> = {};
  const dependencies: Record<string, string[]> = {};
  for (const stack of assembly.stacks) {
    templates[stack.stackName] = stack.template as Json;
    terminationProtection[stack.stackName] = stack.terminationProtection ?? false;
    dependencies[stack.stackName] = stack.dependencies.map((d) => d.id).filter((id) => assembly.stacks.some((st) => st.id === id));
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stack.id}.assets.json`), 'utf8')) as {
      files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
    };
    for (const [logicalId, resource] of Object.entries((stack.template as Json).Resources ?? {}) as [string, Json][]) {
      const key = resource.Properties?.DefinitionS3Location?.Key as string | undefined;
      if (resource.Type !== 'AWS::StepFunctions::StateMachine' || !key) continue;
      const asset = Object.values(manifest.files).find((file) => Object.values(file.destinations).some((d) => d.objectKey === key));
      if (asset) definitions[logicalId] = readFileSync(join(assembly.directory, asset.source.path), 'utf8');
    }
    for (const [logicalId, resource] of Object.entries((stack.template as Json).Resources ?? {}) as [string, Json][]) {
      const path = resource.Metadata?.['aws:cdk:path'] as string | undefined;
      if (path) paths[path] = { stack: stack.stackName, logicalId };
    }
  }
  const { violations } = new AwsSolutionsChecks().validateScope(app);
  return {
    templates,
    coreStackName: built.core.stackName,
    domainStacks: Object.fromEntries([...built.domains].map(([domain, stack]) => [domain, stack.stackName])),
    paths,
    definitions,
    terminationProtection,
    dependencies,
    violations: violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
  };
};

/** The synthesis of one context, once per test run: the first test file to ask writes it for the others. */
const cachedSynthesis = (context: Record<string, unknown>, options: SynthesizeOptions): Synthesis => {
  const dir = process.env.INFRA_SYNTH_CACHE;
  if (!dir) return synthesize(context, options);
  const key = createHash('sha256').update(JSON.stringify({ context, options })).digest('hex').slice(0, 16);
  const file = join(dir, `${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Synthesis;
  const synthesis = synthesize(context, options);
  writeFileSync(file, JSON.stringify(synthesis));
  return synthesis;
};

/** Replaces every `Fn::ImportValue` by what a stack of the app exports under that name. */
const resolveImports = (value: unknown, exports: Map<string, unknown>): unknown => {
  if (Array.isArray(value)) return value.map((item) => resolveImports(item, exports));
  if (value && typeof value === 'object') {
    const object = value as Json;
    const name = object['Fn::ImportValue'];
    if (typeof name === 'string' && Object.keys(object).length === 1 && exports.has(name)) return exports.get(name);
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, resolveImports(v, exports)]));
  }
  return value;
};

export interface Synthesized extends Synthesis {
  /**
   * Every stack's resources and outputs in one template, each import of an export replaced by the
   * reference it exports: assertions about what a function may reach read as they would in
   * one stack. Logical ids are unique across the app (checked).
   */
  template: Template;
  /** One stack's template as synthesized (imports as they are). */
  stack(name: string): Template;
  /** The logical id of the resource at a construct path, e.g. `ProjectAutomationService-Workflows/Workflows/StateMachine/Resource`. */
  idAt(path: string): string;
  /** The stack that holds a logical id. */
  stackOf(logicalId: string): string;
}

const merged = (synthesis: Synthesis): Json => {
  const exports = new Map<string, unknown>();
  for (const template of Object.values(synthesis.templates)) {
    for (const output of Object.values((template.Outputs ?? {}) as Record<string, Json>)) {
      if (output.Export?.Name) exports.set(output.Export.Name as string, output.Value);
    }
  }
  const resources: Json = {};
  const outputs: Json = {};
  for (const [stackName, template] of Object.entries(synthesis.templates)) {
    for (const [id, resource] of Object.entries((template.Resources ?? {}) as Json)) {
      if (resources[id]) throw new Error(`logical id ${id} is in two stacks (${stackName} and another)`);
      resources[id] = resolveImports(resource, exports);
    }
    for (const [id, output] of Object.entries((template.Outputs ?? {}) as Json)) outputs[id] = resolveImports(output, exports);
  }
  return { Resources: resources, Outputs: outputs };
};

/** The whole app synthesized with `context` (cached for the run). */
export const synthesized = (context: Record<string, unknown> = {}, options: SynthesizeOptions = {}): Synthesized => {
  const synthesis = cachedSynthesis(context, options);
  const template = Template.fromJSON(merged(synthesis), { skipCyclicalDependenciesCheck: true });
  const stacks = new Map<string, Template>();
  return {
    ...synthesis,
    template,
    stack(name) {
      const raw = synthesis.templates[name];
      if (!raw) throw new Error(`no stack ${name}; stacks: ${Object.keys(synthesis.templates).join(', ')}`);
      if (!stacks.has(name)) stacks.set(name, Template.fromJSON(raw, { skipCyclicalDependenciesCheck: true }));
      return stacks.get(name) as Template;
    },
    idAt(path) {
      const found = synthesis.paths[path];
      if (!found) throw new Error(`no resource at ${path}`);
      return found.logicalId;
    },
    stackOf(logicalId) {
      const found = Object.entries(synthesis.templates).find(([, t]) => t.Resources?.[logicalId]);
      if (!found) throw new Error(`no stack holds ${logicalId}`);
      return found[0];
    },
  };
};

/** Logical ids of the resources the infra tests name by construct (not by a property under test). */
export const idsOf = (s: Synthesized) => {
  const core = s.coreStackName;
  const domain = (name: string) => s.domainStacks[name] as string;
  return {
    table: s.idAt(`${core}/Table/Resource`),
    artifacts: s.idAt(`${core}/Workflows/Artifacts/Resource`),
    artifactKey: s.idAt(`${core}/Workflows/ArtifactKey/Resource`),
    signingKey: s.idAt(`${core}/Workflows/ProvenanceSigningKey/Resource`),
    imageRepository: s.idAt(`${core}/Images/Repository/Resource`),
    deliveryQueue: s.idAt(`${core}/Webhooks/Queue/Resource`),
    deadLetterQueue: s.idAt(`${core}/Webhooks/DeadLetterQueue/Resource`),
    fanOutFailures: s.idAt(`${core}/Webhooks/FanOutFailures/Resource`),
    securityFailures: s.idAt(`${core}/Security/Failures/Resource`),
    testFailures: s.idAt(`${core}/Tests/Failures/Resource`),
    reviewFailures: s.idAt(`${core}/Reviews/Failures/Resource`),
    executionFailures: s.idAt(`${core}/ExecutionSafetyNet/Failures/Resource`),
    api: s.idAt(`${core}/Api/Resource`),
    workflowMachine: s.idAt(`${domain('Workflows')}/Workflows/StateMachine/Resource`),
    deploymentMachine: s.idAt(`${domain('Deployments')}/Deployments/StateMachine/Resource`),
    imageProject: s.idAt(`${domain('Workflows')}/Images/Project/Resource`),
    testRunner: s.idAt(`${domain('Tests')}/Tests/Runner/Resource`),
    securityFunction: s.idAt(`${domain('Security')}/Security/Function/Function/Resource`),
    testsFunction: s.idAt(`${domain('Tests')}/Tests/Function/Function/Resource`),
    reviewFunction: s.idAt(`${domain('Reviews')}/Reviews/Function/Function/Resource`),
    executionEnded: s.idAt(`${domain('Operations')}/ExecutionSafetyNet/Function/Function/Resource`),
    jobFailed: s.idAt(`${domain('Operations')}/ExecutionSafetyNet/JobFailed/Function/Resource`),
  };
};
