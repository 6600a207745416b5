import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_INFO } from './catalogue';

const root = join(__dirname, '..');
const serverJson = JSON.parse(readFileSync(join(root, 'server.json'), 'utf8')) as {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: { registryType: string; identifier: string; version: string; transport: { type: string } }[];
};
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  mcpName: string;
};

/**
 * The version bump rule for the MCP registry entry (docs/mcp.md, "Registry"): server.json, its npm package entry,
 * packages/mcp/package.json and the version the server announces move together, so a release bumps all four or this
 * fails. The registry's own rules checked here: one slash in the name, which npm's mcpName repeats; a description
 * of at most 100 characters; a concrete package version; a transport on every package.
 */
describe('packages/mcp/server.json', () => {
  it('has the version of packages/mcp/package.json, in every place a version is written', () => {
    expect(serverJson.version).toBe(packageJson.version);
    expect(serverJson.packages.map((p) => p.version)).toEqual([packageJson.version]);
    expect(SERVER_INFO.version).toBe(packageJson.version);
  });

  it('follows the registry rules the schema and the official registry set', () => {
    expect(serverJson.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/.+\/server\.schema\.json$/,
    );
    expect(serverJson.name.split('/')).toHaveLength(2);
    expect(packageJson.mcpName).toBe(serverJson.name);
    expect(serverJson.description.length).toBeLessThanOrEqual(100);
    expect(serverJson.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(serverJson.packages).toEqual([
      expect.objectContaining({
        registryType: 'npm',
        identifier: packageJson.name,
        transport: { type: 'stdio' },
      }),
    ]);
  });
});
