// What the webhook processor uses of reactions: refolding what stands after a status webhook.
export { foldOwnReactions } from './own-reaction-fold';
