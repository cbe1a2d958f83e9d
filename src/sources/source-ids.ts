/** Source names, checked without loading any parser (the CLI validates names before heavy imports). */
import { SOURCE_IDS, type SourceId } from '../domain/event.js';
import { CatintelError } from '../errors.js';

export function parseSourceId(id: string): SourceId {
  if ((SOURCE_IDS as readonly string[]).includes(id)) return id as SourceId;
  throw new CatintelError('invalid_parameter', `unknown source "${id}"; choose from ${SOURCE_IDS.join(', ')}`, {
    errors: [{ field: 'source', message: `must be one of ${SOURCE_IDS.join(', ')}` }],
  });
}
