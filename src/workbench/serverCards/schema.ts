/**
 * The shapes of a Server Card and of a catalog, as JSON Schema for our validator (protocol/validation). Written from
 * modelcontextprotocol/experimental-ext-server-card at 8924e08 (2026-07-24), the working group's repository for
 * SEP-2127: `schema.json` (the `ServerCard` definition, `$schema` family v1) and `docs/discovery.md` (catalog
 * entries). Descriptions are left out; the bounds (lengths, patterns, enums) are the specification's.
 */

/** The one `$schema` value a v1 card declares; another family is a shape this client does not know. */
export const CARD_SCHEMA_URI = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The media type of a Server Card (discovery.md), sent in Accept and required of a catalog entry's `type`. */
export const CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

const input = {
  type: 'object',
  additionalProperties: false,
  properties: {
    choices: { type: 'array', items: { type: 'string' } },
    default: { type: 'string' },
    description: { type: 'string' },
    format: { type: 'string', enum: ['boolean', 'filepath', 'number', 'string'] },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    placeholder: { type: 'string' },
    value: { type: 'string' },
  },
};

export const SERVER_CARD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $ref: '#/$defs/ServerCard',
  $defs: {
    Input: input,
    KeyValueInput: {
      ...input,
      properties: {
        ...input.properties,
        name: { type: 'string' },
        variables: { type: 'object', additionalProperties: { $ref: '#/$defs/Input' } },
      },
      required: ['name'],
    },
    Icon: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mimeType: { type: 'string' },
        sizes: { type: 'array', items: { type: 'string' } },
        src: { type: 'string', format: 'uri' },
        theme: { type: 'string', enum: ['dark', 'light'] },
      },
      required: ['src'],
    },
    Remote: {
      type: 'object',
      additionalProperties: false,
      properties: {
        headers: { type: 'array', items: { $ref: '#/$defs/KeyValueInput' } },
        supportedProtocolVersions: { type: 'array', items: { type: 'string' } },
        type: { type: 'string', enum: ['sse', 'streamable-http'] },
        url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
        variables: { type: 'object', additionalProperties: { $ref: '#/$defs/Input' } },
      },
      required: ['type', 'url'],
    },
    Repository: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        source: { type: 'string' },
        subfolder: { type: 'string' },
        url: { type: 'string', format: 'uri' },
      },
      required: ['source', 'url'],
    },
    ServerCard: {
      type: 'object',
      additionalProperties: false,
      properties: {
        $schema: { type: 'string', const: CARD_SCHEMA_URI },
        _meta: { type: 'object' },
        description: { type: 'string', minLength: 1, maxLength: 100 },
        icons: { type: 'array', items: { $ref: '#/$defs/Icon' } },
        name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
        remotes: { type: 'array', items: { $ref: '#/$defs/Remote' } },
        repository: { $ref: '#/$defs/Repository' },
        title: { type: 'string', minLength: 1, maxLength: 100 },
        version: { type: 'string', maxLength: 255 },
        websiteUrl: { type: 'string', format: 'uri' },
      },
      required: ['$schema', 'description', 'name', 'version'],
    },
  },
} as const;

/**
 * An MCP Catalog (`/.well-known/mcp/catalog.json`) or an AI Catalog (`/.well-known/ai-catalog.json`, discovery.md
 * since 1491bd2): `specVersion` and `entries`. Entries of other types are allowed here and skipped by the reader;
 * an MCP entry has a `url` or an inline card (`data`), which cards.ts checks with the card's own schema.
 */
export const CATALOG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    specVersion: { type: 'string', maxLength: 64 },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          identifier: { type: 'string', minLength: 1, maxLength: 1000 },
          displayName: { type: 'string', maxLength: 200 },
          type: { type: 'string', maxLength: 200 },
          url: { type: 'string', maxLength: 4000 },
          data: { type: 'object' },
        },
        required: ['identifier', 'type'],
      },
    },
  },
  required: ['specVersion', 'entries'],
} as const;
