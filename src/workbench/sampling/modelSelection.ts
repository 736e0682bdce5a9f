import type { CreateMessageRequest } from '../../protocol/types';
import type { ModelInfo } from './chatModel';

/**
 * Picks a model for a request among those the person allowed for the server: hints first, in order (the
 * first hint that matches a model name wins, as the spec requires), then the cost/speed/intelligence
 * priorities over whatever scores the models carry, then the first allowed model.
 */
export function chooseModel(
  models: readonly ModelInfo[],
  preferences: CreateMessageRequest['modelPreferences'],
): ModelInfo | undefined {
  if (models.length === 0) return undefined;
  for (const hint of preferences?.hints ?? []) {
    const wanted = hint.name?.toLowerCase();
    if (!wanted) continue;
    const matches = models.filter(
      (model) => model.name.toLowerCase().includes(wanted) || model.id.toLowerCase().includes(wanted),
    );
    if (matches.length) return bestByPriorities(matches, preferences);
  }
  return bestByPriorities(models, preferences);
}

function bestByPriorities(
  models: readonly ModelInfo[],
  preferences: CreateMessageRequest['modelPreferences'],
): ModelInfo {
  const cost = preferences?.costPriority ?? 0;
  const speed = preferences?.speedPriority ?? 0;
  const intelligence = preferences?.intelligencePriority ?? 0;
  if (cost + speed + intelligence === 0) return models[0];
  let best = models[0];
  let bestScore = -Infinity;
  for (const model of models) {
    // A cheap model has a low cost score, so cost counts inversely.
    const score =
      cost * (1 - (model.cost ?? 0.5)) + speed * (model.speed ?? 0.5) + intelligence * (model.intelligence ?? 0.5);
    if (score > bestScore) {
      best = model;
      bestScore = score;
    }
  }
  return best;
}
