import { LottieSvg } from 'lottie-react'

// Default export for React.lazy: lottie-web is fetched by the sign-in page only, never by the home page.
export default function MascotPlayer({ src, playing }: { src: string; playing: boolean }) {
  return <LottieSvg src={src} autoplay={playing} loop style={{ width: '100%', height: '100%' }} />
}
