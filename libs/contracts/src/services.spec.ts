import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeployedApps, ProductServiceApps, serviceNameOf, ServiceNames } from './services';

const apps = join(__dirname, '../../../apps');

/** The projects under apps/ that are not deployed services, by the nx tag that says so. */
const NOT_DEPLOYED = ['type:composition', 'type:e2e'];

function projectTags(app: string): string[] {
  const file = join(apps, app, 'project.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { tags?: string[] }).tags ?? [];
}

describe('the service list', () => {
  const folders = readdirSync(apps, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('names every app folder under apps/ that is not the composition root or the e2e suite, and only those', () => {
    const deployed = folders.filter(
      (app) => !projectTags(app).some((tag) => NOT_DEPLOYED.includes(tag)),
    );
    expect([...deployed].sort()).toEqual([...DeployedApps].sort());
  });

  it.each([...DeployedApps])('%s: is an nx app project with a main.ts and an index.ts', (app) => {
    expect({ app, tags: projectTags(app) }).toEqual({
      app,
      tags: expect.arrayContaining(['type:app', `scope:${app}`]),
    });
    for (const file of ['src/main.ts', 'src/index.ts'])
      expect({ app, file, exists: existsSync(join(apps, app, file)) }).toEqual({
        app,
        file,
        exists: true,
      });
  });

  it('derives one transport and schema name per product service, without dashes', () => {
    expect(ServiceNames).toEqual(ProductServiceApps.map((app) => app.replace(/-/g, '_')));
    expect(serviceNameOf('verify-lookup-preferences')).toBe('verify_lookup_preferences');
    expect(new Set(ServiceNames).size).toBe(ServiceNames.length);
  });
});
