/** A stand-in for IntersectionObserver that tests drive by hand with intersectAll(). */
export class IntersectionObserverStub {
  static readonly instances = new Set<IntersectionObserverStub>()
  readonly elements = new Set<Element>()
  readonly root = null
  readonly rootMargin: string
  readonly thresholds = [0]

  constructor(
    private readonly callback: IntersectionObserverCallback,
    options?: IntersectionObserverInit,
  ) {
    this.rootMargin = options?.rootMargin ?? '0px'
  }

  observe(element: Element) {
    this.elements.add(element)
    IntersectionObserverStub.instances.add(this)
  }
  unobserve(element: Element) {
    this.elements.delete(element)
  }
  disconnect() {
    this.elements.clear()
    IntersectionObserverStub.instances.delete(this)
  }
  takeRecords(): IntersectionObserverEntry[] {
    return []
  }

  /** Whether some observer watches the element. */
  static watches(element: Element): boolean {
    return [...IntersectionObserverStub.instances].some((observer) => observer.elements.has(element))
  }

  /** Tells every observer that all its elements are now in view (or, with false, out of it). */
  static intersectAll(inView = true) {
    for (const observer of [...IntersectionObserverStub.instances]) {
      const entries = [...observer.elements].map(
        (target) => ({ target, isIntersecting: inView, intersectionRatio: inView ? 1 : 0 }) as IntersectionObserverEntry,
      )
      if (entries.length > 0) observer.callback(entries, observer as unknown as IntersectionObserver)
    }
  }
}
