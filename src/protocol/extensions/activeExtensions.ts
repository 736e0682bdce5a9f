import { LocalError } from '../errors';
import type { JsonObject } from '../types';
import type {
  EnabledExtension,
  ExtensionContext,
  ExtensionKey,
  ExtensionId,
  ResultTypeContext,
} from './protocolExtension';

interface Active {
  enabled: EnabledExtension;
  api: unknown;
}

/** The extensions one client enabled: their capabilities, the result types they own, their APIs. */
export class ActiveExtensions {
  private readonly byId = new Map<ExtensionId, Active>();
  private readonly resultTypeOwners = new Map<string, EnabledExtension>();
  /** The `resultType` values enabled extensions own, for the era's interpretation. */
  readonly resultTypes: ReadonlySet<string>;

  constructor(enabled: readonly EnabledExtension[], context: ExtensionContext) {
    for (const extension of enabled) {
      const { id } = extension;
      if (this.byId.has(id)) throw new LocalError('invalid-argument', `protocol extension ${id} was enabled twice`);
      for (const resultType of extension.resultTypes.keys()) {
        const owner = this.resultTypeOwners.get(resultType);
        if (owner)
          throw new LocalError(
            'invalid-argument',
            `protocol extensions ${owner.id} and ${id} both claim resultType "${resultType}"`,
          );
        this.resultTypeOwners.set(resultType, extension);
      }
      this.byId.set(id, { enabled: extension, api: extension.activate(context) });
    }
    this.resultTypes = new Set(this.resultTypeOwners.keys());
  }

  /** `capabilities.extensions`: each enabled extension's settings, or undefined when none is enabled. */
  capabilities(): Record<string, JsonObject> | undefined {
    if (this.byId.size === 0) return undefined;
    const declared: Record<string, JsonObject> = {};
    for (const [id, { enabled }] of this.byId) declared[id] = enabled.settings();
    return declared;
  }

  /** Core capabilities enabled extensions add (merged, later extensions' keys win). */
  coreCapabilities(): JsonObject {
    const declared: JsonObject = {};
    for (const { enabled } of this.byId.values()) Object.assign(declared, enabled.coreCapabilities());
    return declared;
  }

  /** The API of an enabled extension, or undefined when the host did not enable it. */
  api<Api>(key: ExtensionKey<Api>): Api | undefined {
    // By id: a client enables one extension per id (the ids are the protocol's names), so the id is the API's.
    return this.byId.get(key.id)?.api as Api | undefined;
  }

  /** Hands a result of an extension's `resultType` to that extension; its answer is the request's result. */
  resolve(resultType: string, result: JsonObject, context: ResultTypeContext): Promise<JsonObject> {
    const handler = this.resultTypeOwners.get(resultType)?.resultTypes.get(resultType);
    if (!handler)
      return Promise.reject(
        new LocalError(
          'invalid-result',
          `${context.serverName}: no enabled extension reads resultType "${resultType}"`,
        ),
      );
    return handler(result, context);
  }
}
