// What the hearts load when first needed (their state once the page is interactive, a tap), as one chunk:
// the home page's script budget leaves room for one more lazy chunk's name, not three.
export { readFavouriteIds, readFavouritePage, setFavourite } from './favourites-data'
export { default as SignInAsk } from './sign-in-ask'
