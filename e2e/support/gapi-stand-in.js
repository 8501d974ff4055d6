// Browser tests serve this file in place of https://apis.google.com/js/api.js (unreachable offline).
// It implements only what the Firebase Auth SDK (page side) and the Auth emulator's helper iframe
// (/emulator/auth/iframe) use of gapi.iframes: open an iframe, ping it, and register/send named
// messages both ways over window.postMessage.
;(function () {
  'use strict'
  var TAG = '__gapiStandIn'

  if (!(window.gapi && window.gapi.iframes && window.gapi.iframes.standIn)) {
    var channels = [] // one per peer window: the iframes this page opened, or this frame's parent
    var nextId = 1

    function Channel(peerWindow) {
      this.peerWindow = peerWindow // function returning the peer's Window (null until it exists)
      this.handlers = {}
      this.waitingCalls = {} // calls that arrived before their handler was registered, by name
      this.replyCallbacks = {}
      this.ready = false // the peer has its end set up and will answer
      this.whenReady = []
      channels.push(this)
    }

    Channel.prototype.post = function (message) {
      message[TAG] = true
      var target = this.peerWindow()
      // The peer is cross-origin (the emulator's origin); messages carry no secrets.
      if (target) target.postMessage(message, '*')
    }

    Channel.prototype.register = function (name, handler) {
      this.handlers[name] = handler
      var waiting = this.waitingCalls[name] || []
      delete this.waitingCalls[name]
      for (var i = 0; i < waiting.length; i++) this.answer(waiting[i])
    }

    Channel.prototype.send = function (name, data, callback) {
      var self = this
      return new Promise(function (resolve) {
        var id = nextId++
        self.replyCallbacks[id] = function (results) {
          if (callback) runCallback(callback, results)
          resolve(results)
        }
        self.onReady(function () {
          self.post({ kind: 'call', id: id, name: name, data: data })
        })
      })
    }

    Channel.prototype.onReady = function (fn) {
      if (this.ready) fn()
      else this.whenReady.push(fn)
    }

    Channel.prototype.markReady = function () {
      if (this.ready) return
      this.ready = true
      var queued = this.whenReady
      this.whenReady = []
      for (var i = 0; i < queued.length; i++) queued[i]()
    }

    Channel.prototype.answer = function (call) {
      var self = this
      var handler = this.handlers[call.name]
      if (!handler) {
        ;(this.waitingCalls[call.name] = this.waitingCalls[call.name] || []).push(call)
        return
      }
      Promise.resolve()
        .then(function () {
          return handler(call.data)
        })
        .then(
          function (result) {
            self.post({ kind: 'reply', id: call.id, results: [result] })
          },
          function (error) {
            console.error('gapi stand-in: handler for', call.name, 'failed', error)
            self.post({ kind: 'reply', id: call.id, results: [] })
          },
        )
    }

    Channel.prototype.receive = function (message) {
      if (message.kind === 'ready') this.markReady()
      else if (message.kind === 'call') this.answer(message)
      else if (message.kind === 'reply') {
        var callback = this.replyCallbacks[message.id]
        delete this.replyCallbacks[message.id]
        if (callback) callback(message.results)
      }
    }

    // Like gapi, swallow exceptions from callbacks: the SDK's webStorageSupport callback always
    // throws (auth/internal-error) after it has delivered its answer.
    function runCallback(callback, value) {
      try {
        callback(value)
      } catch (error) {}
    }

    window.addEventListener('message', function (event) {
      var message = event.data
      if (!message || typeof message !== 'object' || message[TAG] !== true) return
      for (var i = 0; i < channels.length; i++) {
        if (event.source && channels[i].peerWindow() === event.source) channels[i].receive(message)
      }
    })

    // What the page holds for an iframe it opened.
    function Iframe(element) {
      this.element = element
      this.channel = new Channel(function () {
        return element.contentWindow
      })
    }
    Iframe.prototype.register = function (name, handler) {
      this.channel.register(name, handler)
    }
    Iframe.prototype.send = function (name, data, callback) {
      return this.channel.send(name, data, callback)
    }
    Iframe.prototype.ping = function (callback) {
      var channel = this.channel
      return new Promise(function (resolve) {
        channel.onReady(function () {
          if (callback) runCallback(callback, [])
          resolve([])
        })
      })
    }
    Iframe.prototype.restyle = function (style, callback) {
      if (callback) runCallback(callback, [])
      return Promise.resolve([])
    }
    Iframe.prototype.getSiteEl = function () {
      return this.element
    }
    Iframe.prototype.getIframeEl = function () {
      return this.element
    }

    // What an iframe holds for its parent page.
    function ParentIframe() {
      this.channel = new Channel(function () {
        return window.parent
      })
      this.channel.markReady() // the parent set up its end before it opened this frame
      this.channel.post({ kind: 'ready' })
    }
    ParentIframe.prototype.register = Iframe.prototype.register
    ParentIframe.prototype.send = Iframe.prototype.send

    var parentIframe = null
    var context = {
      open: function (options, onOpened) {
        var element = document.createElement('iframe')
        var attributes = options.attributes || {}
        for (var key in attributes) {
          if (key === 'style' && typeof attributes.style === 'object') Object.assign(element.style, attributes.style)
          else element.setAttribute(key, String(attributes[key]))
        }
        var iframe = new Iframe(element)
        element.src = options.url
        ;(options.where || document.body).appendChild(element)
        return Promise.resolve(onOpened ? onOpened(iframe) : iframe)
      },
      getParentIframe: function () {
        if (window.parent === window) return null
        parentIframe = parentIframe || new ParentIframe()
        return parentIframe
      },
    }

    var gapi = (window.gapi = window.gapi || {})
    gapi.iframes = {
      standIn: true,
      Iframe: Iframe,
      CROSS_ORIGIN_IFRAMES_FILTER: function () {
        return true
      },
      getContext: function () {
        return context
      },
    }
    gapi.load = function (features, options) {
      var callback = typeof options === 'function' ? options : options && options.callback
      if (callback) setTimeout(callback, 0)
    }
  }

  // Like api.js: call the function named by ?onload=, else window.gapi_onload.
  var script = document.currentScript
  var onload = script && script.src ? new URL(script.src).searchParams.get('onload') : null
  setTimeout(function () {
    var callback = onload ? window[onload] : window.gapi_onload
    if (typeof callback === 'function') callback()
  }, 0)
})()
