import { SvcError, type ConfigSchema } from '@svc-org/ai-sdk';
import type { HostServices } from '../../host-services.js';

/** The provider's settings schema, from its preflight (a registered provider is required). */
export async function providerConfigSchema(services: HostServices, providerId: string): Promise<ConfigSchema | undefined> {
  services.registry.get(providerId);
  const report = await services.extensions.doctor(providerId);
  const failed = report.checks.find((check) => check.check === 'config-schema' && !check.ok);
  if (failed && !failed.ok) throw new SvcError({ code: failed.code, message: failed.message });
  return report.configSchema;
}
