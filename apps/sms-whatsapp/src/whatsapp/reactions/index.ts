// What the webhook processor and the late-status retry use of reactions: the statuses of our
// own reactions, and refolding what stands after them.
export { applyOwnReactionStatuses, foldOwnReactions } from './own-reaction-fold';
